//! A record's sandbox line (`sandbox: jail=on(pid,mount,...) landlock=v7 seccomp=on ...`,
//! for those who check the jail) in the few words a replay page's footer gives a person:
//! whether the champions were jailed, and by which layers. The line itself stays in the
//! record (`record.json`, `referee show`).

/// `line` in words: `champions jailed (namespaces, Landlock, seccomp; details in
/// record.json)`, `champions not jailed (--sandbox off; details in record.json)`.
pub fn words(line: &str) -> String {
    let fields: Vec<(&str, &str)> = line
        .strip_prefix("sandbox:")
        .unwrap_or("")
        .split_whitespace()
        .filter_map(|f| f.split_once('='))
        .collect();
    let value = |key: &str| fields.iter().find(|(k, _)| *k == key).map(|(_, v)| *v);
    let on = |key: &str| value(key).is_some_and(|v| v != "off" && !v.starts_with("off("));
    match value("jail") {
        None => "sandbox not recorded".to_string(),
        Some(_) if !on("jail") => "champions not jailed (details in record.json)".to_string(),
        Some(_) => {
            let layers: Vec<&str> = [
                ("jail", "namespaces"),
                ("landlock", "Landlock"),
                ("seccomp", "seccomp"),
            ]
            .iter()
            .filter(|(key, _)| on(key))
            .map(|(_, name)| *name)
            .collect();
            format!(
                "champions jailed ({}; details in record.json)",
                layers.join(", ")
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::words;

    #[test]
    fn the_sandbox_line_in_words() {
        assert_eq!(
            words(
                "sandbox: jail=on(pid,mount,ipc,uts,net,cgroup,uid) proc=pid netns=on \
                 landlock=v7 seccomp=on futex=notify cgroup=off(no memory, pids) uid=on(200000+)"
            ),
            "champions jailed (namespaces, Landlock, seccomp; details in record.json)"
        );
        assert_eq!(
            words("sandbox: jail=on(pid,mount) landlock=off(kernel) seccomp=on"),
            "champions jailed (namespaces, seccomp; details in record.json)"
        );
        assert_eq!(
            words("sandbox: jail=off(--sandbox off) seccomp=off"),
            "champions not jailed (details in record.json)"
        );
        assert_eq!(words(""), "sandbox not recorded");
    }
}
