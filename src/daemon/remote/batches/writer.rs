//! The answers to a batch's parts written into its result: each part's pieces appended
//! in the file's order as they come (one that comes early waits), and the result committed
//! once every part is in, the parts' answers acknowledged only then.

use super::*;

/// What the answers thread needs to write a batch's result.
pub(in crate::daemon::remote) struct Writer<'a> {
    pub(in crate::daemon::remote) remote: &'a Arc<Remote>,
    pub(in crate::daemon::remote) ctx: &'a Arc<Context>,
    pub(in crate::daemon::remote) committer: &'a Committer,
    pub(in crate::daemon::remote) counters: &'a Arc<Counters>,
}

impl Writer<'_> {
    /// One answer to a part of claim `id`.
    pub(in crate::daemon::remote) fn take(
        &self,
        id: ClaimId,
        index: usize,
        answer: Answer,
        acker: Acker,
    ) {
        let handle = self.remote.queue.handle().clone();
        let claimed = Claimed { id, name: answer.name.clone() };
        let path = claimed.path(&self.ctx.settings.folders.claim);
        if self.remote.writing.lock().is_ok_and(|w| w.contains(&id)) {
            // Delivered again while the result is being committed: acknowledged, or
            // written again should the commit fail, when it comes once more.
            return;
        }
        if path.symlink_metadata().is_err() {
            tracing::debug!(file = %answer.name, part = index,
                "an answer to a part of a batch no longer held (answered, or withdrawn)");
            handle.spawn(async move { acker.ack().await });
            return;
        }
        let Ok(mut batches) = self.remote.batches.lock() else { return };
        if !batches.contains_key(&id) {
            // Sent before a restart: the batch is taken up again from its claim.
            match self.resume(&claimed) {
                Some(batch) => {
                    batches.insert(id, batch);
                    self.remote.fly(&claimed, true);
                }
                None => {
                    handle.spawn(async move { acker.ack().await });
                    return;
                }
            }
        }
        let Some(batch) = batches.get_mut(&id) else { return };
        let host = answer.line.host.clone().unwrap_or_else(|| "-".into());
        let part = match answer.part {
            Some(part)
                if batch.parts.get(index).is_some_and(|p| p.first_line == part.first_line) =>
            {
                part
            }
            Some(_) => {
                tracing::warn!(file = %answer.name, part = index,
                    "an answer to a part this batch does not have (cut with other settings?); \
                     dropped");
                handle.spawn(async move { acker.ack().await });
                return;
            }
            None => {
                // The worker could not answer the part (its answer was too large for a
                // message): the batch is answered with that error.
                let batch = batches.remove(&id);
                drop(batches);
                if let Some(batch) = batch {
                    self.reject(batch, answer, acker);
                }
                return;
            }
        };
        let window = self.remote.queue.settings.parts_ahead;
        if index < batch.next {
            // Delivered again: the copy in the files is the same message.
            batch.written.push(acker);
        } else if index >= batch.next + window {
            handle.spawn(async move { acker.ack_with(AckKind::Nak(Some(AHEAD_RETRY))).await });
        } else {
            batch.early.insert(index, (part, host, acker));
        }
        if let Err(error) = append_ready(batch) {
            tracing::warn!(file = %claimed.name, %error,
                "cannot write the result of a batch; its answers come again");
            if let Some(batch) = batches.remove(&id) {
                nak_all(&handle, batch);
            }
            return;
        }
        self.remote.send_ahead(batch);
        if batch.next == batch.parts.len()
            && let Some(batch) = batches.remove(&id)
        {
            drop(batches);
            self.commit(batch);
        }
    }

    /// The state of a batch sent before a restart, from its claim.
    fn resume(&self, claimed: &Claimed) -> Option<Batch> {
        let path = claimed.path(&self.ctx.settings.folders.claim);
        let bytes = std::fs::read(&path).ok()?;
        let settings = &self.remote.queue.settings;
        let max = self.remote.queue.max_payload();
        let parts = plan(&self.ctx.settings.job.pipeline, &bytes, settings, max)?;
        let checksum = pipeline::checksum(&bytes);
        match start(self.ctx, claimed, &bytes, &checksum, parts) {
            Ok(batch) => Some(batch),
            Err(error) => {
                tracing::warn!(file = %claimed.name, %error, "cannot write the result of a batch");
                None
            }
        }
    }

    /// Commits the result of a batch whose every part is written.
    fn commit(&self, batch: Batch) {
        let Batch { claimed, input, written, result, started, .. } = batch;
        let id = claimed.id;
        let summary = *result.document.summary();
        let invalid_lines = result.document.invalid_lines().to_vec();
        let line = LogLine::batch(
            input.len() as u64,
            result.kind.as_deref(),
            &summary,
            &invalid_lines,
            (result.nodes, result.sat),
            started,
        );
        let none_readable = summary.invalid == summary.puzzles();
        let prepared = match (none_readable, result.first_error.clone()) {
            (true, Some(first)) => {
                let error = pipeline::none_readable(first, &invalid_lines);
                let checksum = pipeline::checksum(&input);
                let report = FileReport::rejected(
                    &claimed.name,
                    checksum,
                    Some(Format::Lines),
                    crate::report::Status::Invalid,
                    error,
                );
                result.discard();
                let files = vec![(".error.json".to_string(), report.to_json())];
                self.ctx.outbox.prepare_rendered(&claimed.name, files, None)
            }
            _ => finish(result).map(|temps| self.ctx.outbox.prepared_from(&claimed.name, temps)),
        };
        let rejected = none_readable;
        self.commit_prepared(claimed, prepared, rejected, line, written);
        tracing::debug!(claim = %id, "a batch in parts is complete");
    }

    /// Answers the batch with a worker's error answer to one of its parts.
    fn reject(&self, batch: Batch, answer: Answer, acker: Acker) {
        let Batch { claimed, mut written, early, result, .. } = batch;
        result.discard();
        written.extend(early.into_values().map(|e| e.2));
        written.push(acker);
        let prepared = self.ctx.outbox.prepare_rendered(&claimed.name, answer.files, None);
        self.commit_prepared(claimed, prepared, true, answer.line, written);
    }

    fn commit_prepared(
        &self,
        claimed: Claimed,
        prepared: io::Result<crate::outbox::Prepared>,
        rejected: bool,
        line: LogLine,
        written: Vec<Acker>,
    ) {
        let handle = self.remote.queue.handle().clone();
        let id = claimed.id;
        let prepared = match prepared {
            Ok(prepared) => prepared,
            Err(error) => {
                tracing::warn!(file = %claimed.name, %error,
                    "cannot write the result of a batch; its answers come again");
                for acker in written {
                    handle.spawn(async move { acker.ack_with(AckKind::Nak(None)).await });
                }
                return;
            }
        };
        if let Ok(mut writing) = self.remote.writing.lock() {
            writing.insert(id);
        }
        let path = claimed.path(&self.ctx.settings.folders.claim);
        let done = answered::Answer::new(claimed, path, rejected, line);
        let (remote, ctx, counters) =
            (Arc::clone(self.remote), Arc::clone(self.ctx), Arc::clone(self.counters));
        self.committer.submit(
            prepared,
            Box::new(move |outcome| {
                let committed = answered::committed(&ctx, done, outcome);
                for acker in written {
                    let kind = match &committed {
                        Ok(_) => AckKind::Ack,
                        Err(_) => AckKind::Nak(Some(Duration::from_secs(2))),
                    };
                    handle.spawn(async move { acker.ack_with(kind).await });
                }
                match committed {
                    Ok(outcome) => {
                        counters.count(outcome);
                        remote.landed(id);
                    }
                    Err(error) => {
                        tracing::warn!(%error, "cannot write the result of a batch; it comes again");
                    }
                }
                if let Ok(mut writing) = remote.writing.lock() {
                    writing.remove(&id);
                }
            }),
        );
    }
}

/// Writes the parts that are next in the file's order.
fn append_ready(batch: &mut Batch) -> io::Result<()> {
    while let Some((part, host, acker)) = batch.early.remove(&batch.next) {
        let result = &mut batch.result;
        for puzzle in &part.puzzles {
            result.document.rendered_puzzle(
                &puzzle.json,
                puzzle.status,
                puzzle.uniqueness,
                puzzle.line,
            )?;
            result.solution.write_all(puzzle.solution.as_bytes())?;
            result.solution.write_all(b"\n")?;
            result.nodes += puzzle.nodes;
            result.sat |= puzzle.sat;
            if result.kind.is_none() {
                result.kind.clone_from(&puzzle.kind);
            }
        }
        if batch.next == 0 {
            result.first_error = part.puzzles.first().and_then(|p| p.error.clone());
        }
        *result.answered_by.entry(host).or_default() += part.puzzles.len();
        batch.written.push(acker);
        batch.next += 1;
    }
    Ok(())
}

/// Ends the result's files: `(suffix, temporary file)`, the JSON last.
fn finish(result: Files) -> io::Result<Vec<(String, PathBuf)>> {
    let Files { document, json_temp, solution, solution_temp, answered_by, .. } = result;
    let ended = (|| {
        let json = document.finish_with(Some(&answered_by))?;
        json.into_inner().map_err(|e| e.into_error())?;
        solution.into_inner().map_err(|e| e.into_error())?;
        Ok(())
    })();
    match ended {
        Ok(()) => {
            Ok(vec![(".solution.txt".to_string(), solution_temp), (".json".to_string(), json_temp)])
        }
        Err(error) => {
            let _ = std::fs::remove_file(&json_temp);
            let _ = std::fs::remove_file(&solution_temp);
            Err(error)
        }
    }
}

fn nak_all(handle: &tokio::runtime::Handle, batch: Batch) {
    let Batch { written, early, result, .. } = batch;
    result.discard();
    for acker in written.into_iter().chain(early.into_values().map(|e| e.2)) {
        handle.spawn(async move { acker.ack_with(AckKind::Nak(Some(AHEAD_RETRY))).await });
    }
}
