//! Helpers shared by the integration tests that play whole matches.

use serde_json::Value;

/// No process anywhere carries the `PROLOGIN_SEED` of a seat of this match: the champions
/// and everything they started are gone.
pub fn assert_no_process_left(record: &Value) {
    let seeds: Vec<String> = record["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| format!("PROLOGIN_SEED={}", s["seed"]))
        .collect();
    // The sweep is synchronous, but give the kernel a moment to reap.
    for _ in 0..50 {
        let left: Vec<String> = std::fs::read_dir("/proc")
            .unwrap()
            .flatten()
            .filter(|e| {
                e.file_name()
                    .to_string_lossy()
                    .bytes()
                    .all(|b| b.is_ascii_digit())
            })
            .filter_map(|e| {
                let environ = std::fs::read(e.path().join("environ")).ok()?;
                let text = String::from_utf8_lossy(&environ).into_owned();
                text.split('\0')
                    .any(|v| seeds.iter().any(|s| s == v))
                    .then(|| e.file_name().to_string_lossy().into_owned())
            })
            .collect();
        if left.is_empty() {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    panic!("processes of the match are still running");
}
