//! Reading a claimed input, the *read* step of its life (`lifecycle`): its bytes, or why it
//! is refused (not a regular file once links are followed, over `max_file_bytes`, or
//! unreadable; its sender hears why in an error result, since a second try would fail the
//! same way), or that it is gone (removed from the claim folder by hand).

use super::error::JobError;
use crate::format::InputError;
use crate::pipeline;
use sha2::{Digest, Sha256};
use std::fs::{File, OpenOptions};
use std::io::{self, Read};
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;

/// What reading a claimed input found.
pub(super) enum Input {
    /// Its bytes.
    Bytes(Vec<u8>),
    /// It cannot be answered but by an error result.
    Refused {
        /// Its size (0 when it could not be read at all).
        size: u64,
        /// The checksum of its bytes (of none when it could not be read).
        checksum: String,
        /// Why.
        error: InputError,
    },
    /// No longer in the claim folder (removed by hand).
    Gone,
}

/// Reads the claimed file at `path` (dropped into `inbox`), refusing anything that is not a
/// regular file of at most `max` bytes.
pub(super) fn read(inbox: &Path, path: &Path, max: u64) -> Result<Input, JobError> {
    let mut file = match open_input(inbox, path) {
        Ok(file) => file,
        Err(e) => return Ok(unopenable(path, &e)),
    };
    let meta = match file.metadata() {
        Ok(meta) => meta,
        Err(e) => return Ok(refused(format!("cannot read the file: {e}"), "a readable file")),
    };
    if !meta.is_file() {
        return Ok(not_regular(path, &meta));
    }
    if meta.len() > max {
        return too_large(&mut file, path, meta.len(), max);
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    if let Err(e) = (&mut file).take(max + 1).read_to_end(&mut bytes) {
        return Ok(refused(format!("cannot read the file: {e}"), "a readable file"));
    }
    if bytes.len() as u64 > max {
        // It grew after the stat; hash the whole file without holding it.
        let size = file.metadata().map_or(bytes.len() as u64, |m| m.len());
        return too_large(&mut file, path, size, max);
    }
    Ok(Input::Bytes(bytes))
}

/// Opens a claimed input for reading. A symbolic link is followed; a relative one from the
/// inbox, where it was dropped, since the link itself was renamed into the claim folder.
/// `O_NONBLOCK`: a FIFO must not block a worker on open.
fn open_input(inbox: &Path, path: &Path) -> io::Result<File> {
    let target = match std::fs::read_link(path) {
        Ok(link) if link.is_relative() => inbox.join(link),
        _ => path.to_path_buf(),
    };
    let flags = rustix::fs::OFlags::NONBLOCK.bits();
    OpenOptions::new().read(true).custom_flags(flags as i32).open(target)
}

/// Why a claimed input could not be opened: gone, a link to nothing, or unreadable.
fn unopenable(path: &Path, error: &io::Error) -> Input {
    match path.symlink_metadata() {
        Err(_) => Input::Gone,
        Ok(meta) if meta.file_type().is_symlink() => refused(
            format!("a symbolic link to {} that cannot be opened: {error}", link_target(path)),
            "a regular file, or a symbolic link to one",
        ),
        Ok(_) => refused(format!("cannot read the file: {error}"), "a readable file"),
    }
}

fn link_target(path: &Path) -> String {
    std::fs::read_link(path).map_or_else(|_| "?".into(), |t| t.display().to_string())
}

/// An input refused before a byte of it was read.
fn refused(message: String, expected: &str) -> Input {
    Input::Refused {
        size: 0,
        checksum: pipeline::checksum(b""),
        error: InputError::whole_file(message, expected),
    }
}

/// A claimed input that is not a regular file (once links are followed), named by kind.
fn not_regular(path: &Path, meta: &std::fs::Metadata) -> Input {
    use std::os::unix::fs::FileTypeExt;
    let t = meta.file_type();
    let kind = if t.is_dir() {
        "a folder"
    } else if t.is_fifo() {
        "a FIFO"
    } else if t.is_socket() {
        "a socket"
    } else if t.is_block_device() || t.is_char_device() {
        "a device"
    } else {
        "not a regular file"
    };
    let through = match path.symlink_metadata() {
        Ok(m) if m.file_type().is_symlink() => {
            format!("a symbolic link to {} ({kind})", link_target(path))
        }
        _ => kind.to_string(),
    };
    refused(format!("{through}, not a regular file"), "a regular file, or a symbolic link to one")
}

fn too_large(file: &mut File, path: &Path, size: u64, max: u64) -> Result<Input, JobError> {
    let checksum = stream_checksum(file).map_err(|e| JobError::io("cannot read", path, e))?;
    Ok(Input::Refused {
        size,
        checksum,
        error: InputError::whole_file(
            format!("the file has {size} bytes, over the limit of {max} bytes"),
            format!("at most {max} bytes"),
        ),
    })
}

/// SHA-256 of a whole file read from its start in small pieces.
fn stream_checksum(file: &mut File) -> io::Result<String> {
    use std::io::Seek;
    file.seek(io::SeekFrom::Start(0))?;
    let mut hasher = Sha256::new();
    let mut buffer = vec![0u8; 64 << 10];
    loop {
        let n = file.read(&mut buffer)?;
        if n == 0 {
            return Ok(crate::util::hex(&hasher.finalize()));
        }
        hasher.update(&buffer[..n]);
    }
}
