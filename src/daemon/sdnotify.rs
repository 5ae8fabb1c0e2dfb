//! Service-manager notifications (`sd_notify`): `READY=1` once the start-up scan is done and
//! jobs flow, `STOPPING=1` when shutdown begins, a `STATUS=` line for `systemctl status` (it
//! also tells when results cannot be written and inputs wait in the claim folder), and
//! `WATCHDOG=1` from the heartbeat while the daemon makes progress.
//! Outside systemd (`NOTIFY_SOCKET` unset) every call does nothing.

use sd_notify::NotifyState;

/// Tells the service manager that start-up is complete.
pub fn ready(status: &str) {
    send(&[NotifyState::Ready, NotifyState::Status(status)]);
}

/// Tells the service manager that shutdown has begun.
pub fn stopping(status: &str) {
    send(&[NotifyState::Stopping, NotifyState::Status(status)]);
}

/// Updates the status line alone (what `systemctl status` shows).
pub fn status(status: &str) {
    send(&[NotifyState::Status(status)]);
}

/// Feeds the watchdog (`WatchdogSec=`).
pub fn watchdog() {
    send(&[NotifyState::Watchdog]);
}

/// The watchdog interval the service manager asked for, if any (`WATCHDOG_USEC`).
pub fn watchdog_interval() -> Option<std::time::Duration> {
    sd_notify::watchdog_enabled()
}

fn send(states: &[NotifyState]) {
    if let Err(error) = sd_notify::notify(states) {
        tracing::warn!(%error, "cannot notify the service manager");
    }
}
