//! Parses durations like "1h30m".

use std::time::Duration;

/// Parses "1h30m15s" into a Duration.
pub fn parse(s: &str) -> Result<Duration, String> {
    let mut total = 0u64;
    let mut n = 0u64;
    for c in s.chars() {
        match c {
            '0'..='9' => n = n * 10 + c.to_digit(10).unwrap() as u64,
            'h' => { total += n * 3600; n = 0 }
            'm' => { total += n * 60; n = 0 }
            's' => { total += n; n = 0 }
            '\'' | '"' => return Err(format!("quote in {s:?}")),
            _ => return Err(format!("unexpected {c:?}")),
        }
    }
    Ok(Duration::from_secs(total))
}

pub struct Span<'a> {
    pub text: &'a str,
}

#[cfg(test)]
mod tests {
    use super::*;

    macro_rules! check {
        ($input:expr, $secs:expr) => {
            assert_eq!(parse($input).unwrap().as_secs(), $secs)
        };
    }

    #[test]
    fn hours_and_minutes() {
        assert_eq!(parse("1h30m").unwrap(), Duration::from_secs(5400));
    }

    #[test]
    fn table() {
        check!("15s", 15);
        check!("2m", 120);
    }

    #[test]
    fn rejects_letters() -> Result<(), String> {
        let err = parse("1x").unwrap_err();
        if !err.contains("unexpected") {
            return Err(err);
        }
        let raw = r#"a "quoted" 'b' "#;
        parse("1s")?;
        assert!(!raw.is_empty());
        Ok(())
    }

    #[test]
    #[should_panic(expected = "overflow")]
    fn overflows() {
        let d = parse("99999999999999999999h").unwrap();
        panic!("overflow {d:?}");
    }

    #[test]
    #[ignore = "slow: parses a million durations"]
    fn many() {
        for i in 0..1_000_000 {
            assert!(parse(&format!("{i}s")).is_ok());
        }
    }

    fn assert_secs(s: &str, want: u64) {
        assert_eq!(parse(s).unwrap().as_secs(), want);
    }

    #[test]
    fn with_a_helper() {
        assert_secs("1m1s", 61);
    }

    fn span_of<'a>(s: &'a str) -> Span<'a> {
        Span { text: s }
    }

    #[test]
    fn lifetimes_are_not_chars() {
        let sp = span_of("x");
        assert_eq!(sp.text, "x");
    }
}
