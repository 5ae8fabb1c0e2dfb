//! The pipeline's scheduler: its queue of tasks, and the workers that take them.

use super::super::Crew;
use super::super::early::Early;
use crate::solver::termination::{Abandon, work_waits};
use std::collections::VecDeque;
use std::sync::{Condvar, Mutex, PoisonError};
use std::time::Duration;

/// One task of the pipeline: an even region (by its index among the even ones) or a piece.
#[derive(Clone, Copy)]
pub(super) enum Task {
    Even(usize),
    Piece(usize),
}

/// The scheduler's shared state.
pub(super) struct Queue {
    pub(super) ready: VecDeque<Task>,
    /// Per piece: the even regions it still waits for.
    pub(super) waiting_for: Vec<usize>,
    /// Tasks not yet finished (ready, running or waiting).
    pub(super) unfinished: usize,
    /// Tasks running.
    pub(super) running: usize,
    /// Workers at work: the caller, and the helpers started and not yet ended.
    pub(super) workers: usize,
}

/// The pipeline's workers: the caller, which stays until every task is finished, and
/// helpers on the pool's other threads, which never wait.
///
/// A helper is a job of the pool, and a thread that waits for its own jobs (a region's
/// sub-regions, solved side by side) runs others meanwhile, this pipeline's helpers
/// among them: a helper that waited for the pipeline's unfinished tasks there would wait
/// for the task beneath it on its own stack, for ever (a 300x300 grid on 16 threads of 2
/// cores did, every time). So a helper that finds nothing ready ends, and a task that
/// makes pieces ready starts helpers for them, up to the crew's threads.
pub(super) struct Workers<'w> {
    pub(super) queue: &'w Mutex<Queue>,
    pub(super) changed: &'w Condvar,
    pub(super) abandon: &'w Abandon,
    pub(super) early: &'w Early<'w>,
    pub(super) crew: Crew<'w>,
    /// Runs a task; the pieces it made ready to start (the dependents of an even region),
    /// or `None` when it was stopped before it began.
    pub(super) run_task: &'w (dyn Fn(Task) -> Option<&'w [usize]> + Sync),
}

impl<'w> Workers<'w> {
    /// Starts `count` helpers on the pool.
    pub(super) fn spawn_helpers<'s>(&'s self, scope: &rayon::Scope<'s>, count: usize)
    where
        'w: 's,
    {
        for _ in 0..count {
            scope.spawn(move |scope| self.work(scope, true));
        }
    }

    /// One worker's loop: the next ready task until none is left; in the pipeline's tail
    /// (every task left is running), an early repair where one can be made. The caller
    /// then helps the nested work of the tasks running, or waits a moment for one to
    /// finish; a helper ends, and also while other work waits for its thread.
    pub(super) fn work<'s>(&'s self, scope: &rayon::Scope<'s>, helper: bool)
    where
        'w: 's,
    {
        loop {
            if self.abandon.is_raised() || (helper && work_waits(self.crew.waiting)) {
                return self.leave(helper);
            }
            let (task, tail) = {
                let mut queue = self.queue.lock().unwrap_or_else(PoisonError::into_inner);
                if queue.unfinished == 0 {
                    drop(queue);
                    return self.leave(helper);
                }
                let task = queue.ready.pop_front();
                queue.running += usize::from(task.is_some());
                (task, queue.unfinished == queue.running)
            };
            let Some(task) = task else {
                if tail && self.early.repair_one() {
                    self.changed.notify_all();
                    continue;
                }
                if helper {
                    if self.retire() {
                        return;
                    }
                    continue;
                }
                if rayon::yield_now() != Some(rayon::Yield::Executed) {
                    let queue = self.queue.lock().unwrap_or_else(PoisonError::into_inner);
                    if queue.ready.is_empty() && queue.unfinished > 0 {
                        let pause = Duration::from_micros(200);
                        drop(self.changed.wait_timeout(queue, pause));
                    }
                }
                continue;
            };
            let Some(unblocked) = (self.run_task)(task) else {
                return self.leave(helper);
            };
            let started = {
                let mut queue = self.queue.lock().unwrap_or_else(PoisonError::into_inner);
                queue.unfinished -= 1;
                queue.running -= 1;
                if queue.unfinished == 0 {
                    self.early.pipeline_done();
                }
                for &p in unblocked {
                    queue.waiting_for[p] -= 1;
                    if queue.waiting_for[p] == 0 {
                        queue.ready.push_back(Task::Piece(p));
                    }
                }
                // The threads not at work take up what is ready now, or, in the tail, the
                // early repairs a finished task may have made possible.
                let idle = self.crew.threads.saturating_sub(queue.workers);
                let tail = queue.unfinished == queue.running && queue.unfinished > 0;
                let wanted = if tail { idle } else { queue.ready.len().min(idle) };
                let started = if work_waits(self.crew.waiting) { 0 } else { wanted };
                queue.workers += started;
                started
            };
            self.changed.notify_all();
            self.spawn_helpers(scope, started);
        }
    }

    /// Ends a helper when nothing is ready (checked again under the lock, so that a task
    /// made ready meanwhile is not left without a worker); false when something is.
    fn retire(&self) -> bool {
        let mut queue = self.queue.lock().unwrap_or_else(PoisonError::into_inner);
        if !queue.ready.is_empty() {
            return false;
        }
        queue.workers -= 1;
        true
    }

    /// A worker leaves: a helper is no longer counted.
    fn leave(&self, helper: bool) {
        if helper {
            self.queue.lock().unwrap_or_else(PoisonError::into_inner).workers -= 1;
        }
    }
}
