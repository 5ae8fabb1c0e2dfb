//! Termination signals: SIGTERM and SIGINT are turned into messages on a channel by a small
//! thread (`signal-hook`'s iterator does the async-signal-safe part), so the main thread can
//! wait for "a signal or a fatal error" in one place. The first signal starts the graceful
//! shutdown; a second one cuts the drain short.

use crossbeam_channel::Receiver;
use signal_hook::consts::{SIGINT, SIGTERM};
use signal_hook::iterator::Signals;

/// Starts forwarding SIGTERM and SIGINT; each received signal's number arrives on the
/// returned channel. The error says which step failed.
pub fn forward() -> std::io::Result<Receiver<i32>> {
    let step = |about: &str| {
        let about = about.to_string();
        move |e: std::io::Error| std::io::Error::new(e.kind(), format!("{about}: {e}"))
    };
    let mut signals =
        Signals::new([SIGTERM, SIGINT]).map_err(step("cannot install signal handlers"))?;
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
        .map_err(step("cannot start the signal thread"))?;
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
