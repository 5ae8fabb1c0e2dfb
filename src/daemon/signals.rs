//! Termination signals: SIGTERM and SIGINT are turned into messages on a channel by a small
//! thread (`signal-hook`'s iterator does the async-signal-safe part), so the main thread can
//! wait for "a signal or a fatal error" in one place. The first signal starts the graceful
//! shutdown; a second one cuts the drain short.

use super::error::DaemonError;
use crossbeam_channel::Receiver;
use signal_hook::consts::{SIGINT, SIGTERM};
use signal_hook::iterator::Signals;

/// Starts forwarding SIGTERM and SIGINT; each received signal's number arrives on the
/// returned channel.
pub fn forward() -> Result<Receiver<i32>, DaemonError> {
    let mut signals = Signals::new([SIGTERM, SIGINT])
        .map_err(|source| DaemonError::Io { about: "cannot install signal handlers", source })?;
    let (sender, receiver) = crossbeam_channel::unbounded();
    std::thread::Builder::new()
        .name("kakurod-signals".into())
        .spawn(move || {
            for signal in signals.forever() {
                if sender.send(signal).is_err() {
                    return;
                }
            }
        })
        .map_err(|source| DaemonError::Io { about: "cannot start the signal thread", source })?;
    Ok(receiver)
}

/// The conventional name of a signal number, for the log.
pub fn name(signal: i32) -> &'static str {
    match signal {
        SIGTERM => "SIGTERM",
        SIGINT => "SIGINT",
        _ => "signal",
    }
}
