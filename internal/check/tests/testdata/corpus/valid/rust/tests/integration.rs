use std::thread;
use std::time::{Duration, Instant};

#[test]
fn parses_from_another_crate() {
    let d = durations::parse("1m").expect("1m parses");
    assert_eq!(d.as_secs(), 60);
}

#[tokio::test]
async fn waits_for_a_ready_flag() {
    let deadline = Instant::now() + Duration::from_secs(1);
    loop {
        if Instant::now() > deadline {
            panic!("never ready");
        }
        if durations::parse("1s").is_ok() {
            break;
        }
        thread::sleep(Duration::from_millis(5)); // polling with a deadline
    }
}
