//! Reading an input: standard input, a regular file, a FIFO or a pipe, never more than
//! [`MAX_INPUT`] bytes, never blocking on a FIFO that has no writer, never taking a terminal
//! as the controlling one. Anything else (a directory, a device, a standard input the process
//! was started without) is refused with a message.

use std::io::{self, Read};
use std::os::fd::AsRawFd;
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::Path;

/// The largest input read: far more than any hint file, small enough to hold.
pub const MAX_INPUT: usize = 16 << 20;

/// Why an input could not be read: a message that completes "FILE: ...".
pub type InputError = String;

/// The whole of standard input.
pub fn read_stdin() -> Result<Vec<u8>, InputError> {
    read_all(crate::stdio::stdin().map_err(|_| "standard input is closed".to_string())?)
}

/// The whole of the file at `path`, whatever bytes its name holds.
pub fn read(path: &Path) -> Result<Vec<u8>, InputError> {
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
    read_all(file)
}

/// Reads to the end, refusing more than [`MAX_INPUT`] bytes.
fn read_all(reader: impl Read) -> Result<Vec<u8>, InputError> {
    let mut bytes = Vec::new();
    let limit = MAX_INPUT as u64 + 1;
    reader.take(limit).read_to_end(&mut bytes).map_err(|error| describe(&error))?;
    if bytes.len() > MAX_INPUT {
        return Err(format!("is larger than {} MiB; a hint file is far smaller", MAX_INPUT >> 20));
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
