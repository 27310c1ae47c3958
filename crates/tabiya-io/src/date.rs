//! Calendar dates from day numbers, for formats that count days (Wthor's file dates, Arrow's
//! `Date32`/`Date64` columns).

/// The (year, month, day) of a day number counted from 1970-01-01, in the proleptic Gregorian
/// calendar (Howard Hinnant's days-to-civil algorithm, on 400-year eras).
///
/// ```
/// assert_eq!(tabiya_io::date::civil_date(11_016), (2000, 2, 29));
/// ```
pub fn civil_date(days: i64) -> (i64, u8, u8) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u8;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u8;
    (yoe + era * 400 + i64::from(month <= 2), month, day)
}

#[cfg(test)]
mod tests {
    use super::civil_date;

    #[test]
    fn civil_dates() {
        assert_eq!(civil_date(0), (1970, 1, 1));
        assert_eq!(civil_date(-1), (1969, 12, 31));
        assert_eq!(civil_date(11_016), (2000, 2, 29));
        assert_eq!(civil_date(20_500), (2026, 2, 16));
    }
}
