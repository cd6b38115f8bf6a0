//! Which sandbox layers are on, as the one line every run prints and every record keeps.
//! The containment of `champion/` (process group, rlimits, sweep) is always on; the
//! stronger layers (network, filesystem, syscalls, cgroups) are probed here.

/// The sandbox line, e.g. `sandbox: pgroup=on rlimits=on netns=off(...)`.
pub fn probe_line() -> String {
    "sandbox: pgroup=on rlimits=on sweep=on netns=off(not built yet) landlock=off(not built yet) \
     seccomp=off(not built yet) cgroup=off(not built yet)"
        .to_string()
}
