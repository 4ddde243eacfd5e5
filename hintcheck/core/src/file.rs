//! Writing the report file. The report is rewritten whole: its text goes to a new temporary
//! file beside it (created with `O_EXCL`, mode 0666 less the umask), which is renamed over it.
//! A rename replaces whatever is at the path, so the path must hold a regular file or nothing:
//! a device, FIFO, socket, directory or symbolic link (`/dev/stdout` is one) is refused. The
//! check (`lstat`) is made before the temporary file is created and again just before the
//! rename, which cannot be made conditional: something put at the path between that check and
//! the rename is still replaced (docs/hintcheck.md).

use std::ffi::OsString;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write as _};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

/// Why the report could not be written.
pub enum WriteError {
    /// Something other than a regular file is at the path: what it is.
    NotRegular(&'static str),
    Io(io::Error),
}

/// What is at `path`: `Ok` for nothing or a regular file.
fn check(path: &Path) -> Result<(), WriteError> {
    match fs::symlink_metadata(path) {
        Ok(meta) => {
            let kind = meta.file_type();
            if kind.is_file() {
                Ok(())
            } else {
                Err(WriteError::NotRegular(if kind.is_symlink() {
                    "a symbolic link"
                } else if kind.is_dir() {
                    "a directory"
                } else if kind.is_fifo() {
                    "a FIFO"
                } else if kind.is_socket() {
                    "a socket"
                } else if kind.is_char_device() {
                    "a character device"
                } else if kind.is_block_device() {
                    "a block device"
                } else {
                    "not a regular file"
                }))
            }
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(WriteError::Io(e)),
    }
}

/// A new temporary file beside `path`, created exclusively: its name and the open file.
fn temporary(path: &Path) -> io::Result<(PathBuf, File)> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let base = path.file_name().map(|n| n.as_bytes()).unwrap_or(b"report");
    let mut last = io::Error::from(io::ErrorKind::AlreadyExists);
    for n in 0..100u32 {
        let mut name = b".".to_vec();
        name.extend_from_slice(base);
        name.extend_from_slice(format!(".hintcheck-{}-{n}.tmp", std::process::id()).as_bytes());
        let tmp = dir.join(OsString::from_vec(name));
        match OpenOptions::new().write(true).create_new(true).mode(0o666).open(&tmp) {
            Ok(f) => return Ok((tmp, f)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => last = e,
            Err(e) => return Err(e),
        }
    }
    Err(last)
}

/// Writes `text` as the whole content of `path`, through a temporary file renamed over it.
pub fn replace(path: &Path, text: &[u8]) -> Result<(), WriteError> {
    check(path)?;
    let (tmp, mut f) = temporary(path).map_err(WriteError::Io)?;
    let result = f.write_all(text).map_err(WriteError::Io).and_then(|_| {
        drop(f);
        check(path)?;
        fs::rename(&tmp, path).map_err(WriteError::Io)
    });
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_regular_file_or_nothing_is_replaced() {
        let dir = std::env::temp_dir().join(format!("hintcheck-file-test-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir(&dir).unwrap();
        let report = dir.join("report.json");
        assert!(replace(&report, b"one").is_ok());
        assert!(replace(&report, b"two").is_ok());
        assert_eq!(fs::read(&report).unwrap(), b"two");
        let link = dir.join("link.json");
        std::os::unix::fs::symlink(&report, &link).unwrap();
        assert!(matches!(replace(&link, b"three"), Err(WriteError::NotRegular("a symbolic link"))));
        assert!(matches!(replace(&dir, b"three"), Err(WriteError::NotRegular("a directory"))));
        assert_eq!(fs::read(&report).unwrap(), b"two");
        assert!(fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
        // Nothing but the two is left in the directory (no temporary file).
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 2);
        fs::remove_dir_all(&dir).unwrap();
    }
}
