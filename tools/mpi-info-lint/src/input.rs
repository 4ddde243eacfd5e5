//! Reading an input: standard input, a regular file, a FIFO or a pipe, never more than
//! its [`Limit`], never blocking on a FIFO that has no writer, never taking a terminal
//! as the controlling one. Anything else (a directory, a device, a standard input the process
//! was started without) is refused with a message.

use std::io::{self, Read};
use std::os::fd::AsRawFd;
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::Path;

/// The most read of an input, and what the message of a larger one adds.
#[derive(Clone, Copy)]
pub struct Limit {
    pub bytes: usize,
    pub note: &'static str,
}

/// A hint file: far more than any, small enough to hold.
pub const HINT_TEXT: Limit = Limit { bytes: 16 << 20, note: "a hint file is far smaller" };

/// A report of libmpi_info_hintcheck (--report): it grows with the distinct hint sets of a job,
/// some kilobytes each.
pub const REPORT: Limit = Limit { bytes: 256 << 20, note: "the most --report reads" };

/// Why an input could not be read: a message that completes "FILE: ...".
pub type InputError = String;

/// The whole of standard input, a hint text.
pub fn read_stdin() -> Result<Vec<u8>, InputError> {
    read_stdin_up_to(HINT_TEXT)
}

/// The whole of standard input, up to `limit`.
pub fn read_stdin_up_to(limit: Limit) -> Result<Vec<u8>, InputError> {
    read_all(crate::stdio::stdin().map_err(|_| "standard input is closed".to_string())?, limit)
}

/// The whole of the hint file at `path`, whatever bytes its name holds.
pub fn read(path: &Path) -> Result<Vec<u8>, InputError> {
    read_up_to(path, HINT_TEXT)
}

/// The whole of the file at `path`, up to `limit`.
pub fn read_up_to(path: &Path, limit: Limit) -> Result<Vec<u8>, InputError> {
    let file = std::fs::OpenOptions::new()
        .read(true)
        // A FIFO without a writer would block the open; a terminal must not become ours.
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path)
        .map_err(|error| describe(&error))?;
    let kind = file.metadata().map_err(|error| describe(&error))?.file_type();
    if kind.is_dir() {
        return Err("is a directory".into());
    }
    if !(kind.is_file() || kind.is_fifo()) {
        return Err("is not a regular file or a FIFO".into());
    }
    if kind.is_fifo() {
        // Back to blocking reads: a writer that holds the FIFO open is read until it closes
        // it; with no writer, the first read is the end.
        let fd = file.as_raw_fd();
        // SAFETY: fcntl on a descriptor this function owns (`file` is open), with flags only.
        let flags = unsafe { libc::fcntl(fd, libc::F_GETFL) };
        // SAFETY: as above.
        if flags < 0 || unsafe { libc::fcntl(fd, libc::F_SETFL, flags & !libc::O_NONBLOCK) } < 0 {
            return Err(describe(&io::Error::last_os_error()));
        }
    }
    read_all(file, limit)
}

/// Reads to the end, refusing more than `limit` bytes.
fn read_all(reader: impl Read, limit: Limit) -> Result<Vec<u8>, InputError> {
    let mut bytes = Vec::new();
    reader.take(limit.bytes as u64 + 1).read_to_end(&mut bytes).map_err(|error| describe(&error))?;
    if bytes.len() > limit.bytes {
        return Err(format!("is larger than {} MiB; {}", limit.bytes >> 20, limit.note));
    }
    Ok(bytes)
}

/// An I/O error as a message, without Rust's "(os error N)".
pub fn describe(error: &io::Error) -> String {
    match error.kind() {
        io::ErrorKind::NotFound => "no such file".into(),
        io::ErrorKind::PermissionDenied => "permission denied".into(),
        _ => {
            let text = error.to_string();
            match text.find(" (os error") {
                Some(cut) => text[..cut].to_lowercase(),
                None => text,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_what_is_no_file() {
        assert_eq!(read(Path::new("/nonexistent/hints")), Err("no such file".to_string()));
        assert_eq!(read(Path::new("/")), Err("is a directory".to_string()));
        assert_eq!(read(Path::new("/dev/null")), Err("is not a regular file or a FIFO".to_string()));
    }

    #[test]
    fn reads_a_file_whose_name_is_not_utf8() {
        use std::os::unix::ffi::OsStrExt;
        let dir = std::env::temp_dir().join(format!("mpi-info-lint-input-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(std::ffi::OsStr::from_bytes(b"h\xff\x1b\n.txt"));
        std::fs::write(&path, b"cb_nodes 4\n").unwrap();
        let read_back = read(&path);
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(read_back, Ok(b"cb_nodes 4\n".to_vec()));
    }
}
