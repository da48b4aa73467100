pub fn double(x: i32) -> i32 {
    x * 2
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::thread::sleep;
    use std::time::Duration;

    #[test]
    fn doubles() {
        let _ = double(2);
    }

    #[test]
    fn halves() {}

    #[test]
    #[ignore]
    fn negative() {
        assert_eq!(double(-1), -2);
    }

    #[test]
    fn after_a_while() {
        std::thread::spawn(|| double(1));
        sleep(Duration::from_millis(100));
        assert_eq!(double(1), 2);
    }
}
