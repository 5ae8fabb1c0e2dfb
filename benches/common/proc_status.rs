//! A process's figures from `/proc/PID/status`, for the benchmarks that run the binary.

/// The value (KiB) of `key` (`VmRSS:`, `VmHWM:`) in `/proc/PID/status`; 0 when it cannot
/// be read.
pub fn status_kib(pid: u32, key: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find(|l| l.starts_with(key))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}
