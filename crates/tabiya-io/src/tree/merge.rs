//! Merging streams of records sorted by key (the builder's runs, or the records of several tree
//! files) into one: linear in their sizes, one record of each stream in memory.

use std::io::{self, Read};

use super::record::{Decoder, TreeMove, add_moves};

/// One sorted stream of records and how much its game numbers move up in the merge.
pub struct Stream<R, const K: usize> {
    decoder: Decoder<R>,
    shift: u64,
    head: Option<([u8; K], Vec<TreeMove>)>,
}

impl<R: Read, const K: usize> Stream<R, K> {
    /// Records read from `decoder`, their game numbers moved up by `shift`.
    pub fn new(decoder: Decoder<R>, shift: u64) -> io::Result<Stream<R, K>> {
        let mut stream = Stream { decoder, shift, head: None };
        stream.advance()?;
        Ok(stream)
    }

    fn advance(&mut self) -> io::Result<()> {
        let last = self.head.take().map(|(key, _)| key);
        self.head = self.decoder.position()?;
        if let Some((key, moves)) = &mut self.head {
            if last.is_some_and(|last| last >= *key) {
                let at = self.decoder.offset;
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!("keys out of order before offset {at}"),
                ));
            }
            if self.shift > 0 {
                moves.iter_mut().for_each(|m| m.shift_games(self.shift));
            }
        }
        Ok(())
    }
}

/// Merges `streams` in key order, handing each position and its moves (those of every stream
/// holding the key, added up) to `emit`.
pub fn merge<R: Read, const K: usize>(
    mut streams: Vec<Stream<R, K>>,
    mut emit: impl FnMut(&[u8; K], &mut [TreeMove]) -> io::Result<()>,
) -> io::Result<()> {
    loop {
        let Some(key) = streams.iter().filter_map(|s| s.head.as_ref().map(|(key, _)| *key)).min() else {
            return Ok(());
        };
        let mut moves: Vec<TreeMove> = Vec::new();
        for stream in &mut streams {
            if stream.head.as_ref().is_some_and(|(k, _)| *k == key) {
                let (_, theirs) = stream.head.take().expect("a head");
                stream.head = Some((key, Vec::new()));
                if moves.is_empty() {
                    moves = theirs;
                } else {
                    add_moves(&mut moves, theirs);
                }
                stream.advance()?;
            }
        }
        emit(&key, &mut moves)?;
    }
}
