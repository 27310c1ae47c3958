//! What a collection of games holds, counted as the games stream by ([`Tally`]) and reported in
//! `info` ([`Statistics`]): games, plies, results, dates, ratings, the most frequent players,
//! events and openings, problems. Any game family fills it in (chess, Othello).
//!
//! Memory stays flat however many games pass: the frequent names are counted by
//! [`FrequentNames`], which keeps at most [`FrequentNames::CAPACITY`] × 2 names.

use std::collections::HashMap;

use serde::Serialize;

/// The statistics of a game collection: `info`'s `statistics` object.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Statistics {
    /// Games counted.
    pub games: u64,
    /// Plies of their main lines.
    pub plies: u64,
    /// Results, from White's side (Othello: the first player is Black, counted as `black`).
    pub results: Results,
    /// The earliest and latest dates, as the games write them (`1990.??.??`); `None` when no
    /// game has a year.
    pub dates: Option<[String; 2]>,
    /// Ratings (both players of every game that has them).
    pub ratings: Option<Ratings>,
    /// The most frequent players (either colour), most games first.
    pub players: Vec<Frequent>,
    /// The most frequent events (tournaments), most games first.
    pub events: Vec<Frequent>,
    /// The most frequent openings (ECO codes), most games first; empty where games have none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub openings: Vec<Frequent>,
    /// How far a count of `players`, `events` or `openings` may fall short of the truth: 0 when
    /// every name could be counted exactly (at most [`FrequentNames::CAPACITY`] × 2 of a kind).
    pub frequency_error: u64,
    /// Games that could not be read, and errors and warnings reading the others found.
    pub problems: u64,
}

/// Games by result.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Results {
    /// White (chess) or the second player (Othello: White) won.
    pub white: u64,
    /// Drawn.
    pub draw: u64,
    /// Black won.
    pub black: u64,
    /// No result (`*`, unfinished).
    pub unknown: u64,
}

/// The ratings found.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Ratings {
    /// Lowest.
    pub min: u32,
    /// Highest.
    pub max: u32,
    /// Mean, to one decimal.
    pub mean: f64,
    /// Ratings counted (two a game at most).
    pub count: u64,
}

/// A name and its number of games.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Frequent {
    /// The name (bytes not UTF-8 shown as U+FFFD).
    pub name: String,
    /// Games, at least (see [`Statistics::frequency_error`]).
    pub games: u64,
}

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// White won (Othello: White has more discs).
    White,
    /// Drawn.
    Draw,
    /// Black won.
    Black,
    /// Not known.
    Unknown,
}

/// The facts of one game that the statistics count. Names are bytes as the file holds them.
#[derive(Debug, Clone, Copy)]
pub struct GameFacts<'a> {
    /// Plies of the main line.
    pub plies: u64,
    /// The result.
    pub outcome: Outcome,
    /// The date as written (`YYYY.MM.DD` with `?` for what is unknown, or a year).
    pub date: Option<&'a [u8]>,
    /// The players' ratings (0: none).
    pub ratings: [u32; 2],
    /// The players, White then Black (Othello: Black then White).
    pub players: [Option<&'a [u8]>; 2],
    /// The event or tournament.
    pub event: Option<&'a [u8]>,
    /// The opening (an ECO code).
    pub opening: Option<&'a [u8]>,
}

/// Counts games into [`Statistics`].
#[derive(Debug, Clone, Default)]
pub struct Tally {
    statistics: Statistics,
    dates: Option<[Vec<u8>; 2]>,
    rating_sum: u64,
    players: FrequentNames,
    events: FrequentNames,
    openings: FrequentNames,
}

impl Tally {
    /// Counts one game.
    pub fn add(&mut self, game: &GameFacts) {
        let s = &mut self.statistics;
        s.games += 1;
        s.plies += game.plies;
        *match game.outcome {
            Outcome::White => &mut s.results.white,
            Outcome::Draw => &mut s.results.draw,
            Outcome::Black => &mut s.results.black,
            Outcome::Unknown => &mut s.results.unknown,
        } += 1;
        if let Some(date) = game.date.filter(|d| d.len() >= 4 && d[..4].iter().all(u8::is_ascii_digit)) {
            match &mut self.dates {
                None => self.dates = Some([date.to_vec(), date.to_vec()]),
                Some([first, last]) => {
                    if date < first.as_slice() {
                        *first = date.to_vec();
                    }
                    if date > last.as_slice() {
                        *last = date.to_vec();
                    }
                }
            }
        }
        for rating in game.ratings.into_iter().filter(|&r| r > 0) {
            self.rating_sum += u64::from(rating);
            let r = s.ratings.get_or_insert(Ratings { min: rating, max: rating, mean: 0.0, count: 0 });
            r.min = r.min.min(rating);
            r.max = r.max.max(rating);
            r.count += 1;
        }
        for player in game.players.into_iter().flatten() {
            self.players.add(player);
        }
        if let Some(event) = game.event {
            self.events.add(event);
        }
        if let Some(opening) = game.opening {
            self.openings.add(opening);
        }
    }

    /// Counts a game that could not be read, or a problem reading one found.
    pub fn problem(&mut self) {
        self.statistics.problems += 1;
    }

    /// The statistics, with the `top` most frequent names of each kind.
    pub fn finish(mut self, top: usize) -> Statistics {
        let mut s = self.statistics;
        if let Some(r) = &mut s.ratings {
            r.mean = (self.rating_sum as f64 / r.count as f64 * 10.0).round() / 10.0;
        }
        s.dates = self.dates.map(|d| d.map(|d| String::from_utf8_lossy(&d).into_owned()));
        s.frequency_error = self.players.error.max(self.events.error).max(self.openings.error);
        s.players = self.players.top(top);
        s.events = self.events.top(top);
        s.openings = self.openings.top(top);
        self.statistics = Statistics::default();
        s
    }
}

/// The most frequent names of a stream, in bounded memory (the Misra–Gries summary, in
/// batches): names are counted exactly until [`FrequentNames::CAPACITY`] × 2 are held; then the
/// count of the `CAPACITY`-th most frequent is taken off every name and those left at zero are
/// dropped. A name's count is low by at most the sum taken off (`error`), and a name more
/// frequent than `games / CAPACITY` is never dropped. Amortised O(1) a name.
#[derive(Debug, Clone, Default)]
pub struct FrequentNames {
    counts: HashMap<Box<[u8]>, u64>,
    /// What was taken off every count so far.
    error: u64,
}

impl FrequentNames {
    /// Names kept after each pruning.
    pub const CAPACITY: usize = 4096;

    /// Counts one occurrence of `name`.
    pub fn add(&mut self, name: &[u8]) {
        match self.counts.get_mut(name) {
            Some(count) => *count += 1,
            None => {
                if self.counts.len() >= 2 * Self::CAPACITY {
                    self.prune();
                }
                self.counts.insert(name.into(), 1);
            }
        }
    }

    fn prune(&mut self) {
        let mut counts: Vec<u64> = self.counts.values().copied().collect();
        let (_, &mut cut, _) = counts.select_nth_unstable_by(Self::CAPACITY - 1, |a, b| b.cmp(a));
        self.error += cut;
        self.counts.retain(|_, count| {
            *count = count.saturating_sub(cut);
            *count > 0
        });
    }

    /// The `n` most frequent, most first, then by name.
    pub fn top(&self, n: usize) -> Vec<Frequent> {
        let mut all: Vec<(&[u8], u64)> = self.counts.iter().map(|(k, &v)| (&**k, v)).collect();
        all.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        all.into_iter()
            .take(n)
            .map(|(name, games)| Frequent { name: String::from_utf8_lossy(name).into_owned(), games })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts<'a>(white: &'a str, black: &'a str, outcome: Outcome, date: &'a str, elo: [u32; 2]) -> GameFacts<'a> {
        GameFacts {
            plies: 10,
            outcome,
            date: Some(date.as_bytes()),
            ratings: elo,
            players: [Some(white.as_bytes()), Some(black.as_bytes())],
            event: Some(b"Open"),
            opening: None,
        }
    }

    #[test]
    fn counts_results_dates_ratings_and_players() {
        let mut tally = Tally::default();
        tally.add(&facts("Tal", "Botvinnik", Outcome::White, "1960.03.15", [2600, 2610]));
        tally.add(&facts("Botvinnik", "Tal", Outcome::Draw, "1961.??.??", [0, 2650]));
        tally.add(&facts("Smyslov", "Tal", Outcome::Black, "????.??.??", [0, 0]));
        tally.problem();
        let s = tally.finish(2);
        assert_eq!((s.games, s.plies, s.problems), (3, 30, 1));
        assert_eq!(s.results, Results { white: 1, draw: 1, black: 1, unknown: 0 });
        assert_eq!(s.dates, Some(["1960.03.15".to_owned(), "1961.??.??".to_owned()]));
        assert_eq!(s.ratings, Some(Ratings { min: 2600, max: 2650, mean: 2620.0, count: 3 }));
        let names: Vec<(&str, u64)> = s.players.iter().map(|f| (f.name.as_str(), f.games)).collect();
        assert_eq!(names, [("Tal", 3), ("Botvinnik", 2)]);
        assert_eq!(s.frequency_error, 0);
        assert!(s.openings.is_empty());
    }

    #[test]
    fn frequent_names_stay_bounded_and_keep_the_heavy_hitters() {
        let mut names = FrequentNames::default();
        for i in 0..100_000u32 {
            names.add(format!("rare {i}").as_bytes());
            if i % 10 == 0 {
                names.add(b"heavy");
            }
        }
        assert!(names.counts.len() <= 2 * FrequentNames::CAPACITY);
        let top = names.top(1);
        assert_eq!(top[0].name, "heavy");
        // Low by at most the error, never high.
        assert!(top[0].games <= 10_000 && top[0].games + names.error >= 10_000);
    }
}
