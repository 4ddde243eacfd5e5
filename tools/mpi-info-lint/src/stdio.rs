//! Standard input and output as the process was started with them.
//!
//! A descriptor the process was started without (`mpi-info-lint - <&-`) is opened on
//! `/dev/null` by the Rust runtime before `main`, where it would read as an empty input and
//! take any output in silence. So which of the two were closed is recorded before that, and
//! reading or writing one is an error (`EBADF`), as it is for a C program.

use std::io;
use std::sync::atomic::{AtomicBool, Ordering};

static STDIN_CLOSED: AtomicBool = AtomicBool::new(false);
static STDOUT_CLOSED: AtomicBool = AtomicBool::new(false);

/// Runs before the Rust runtime's start-up code (which is called by `main`).
#[used]
#[link_section = ".init_array"]
static RECORD_AT_START: extern "C" fn() = record_at_start;

extern "C" fn record_at_start() {
    // SAFETY: F_GETFD only asks about a descriptor number; it fails with EBADF when the
    // number is not an open descriptor.
    let closed = |fd| unsafe { libc::fcntl(fd, libc::F_GETFD) } == -1;
    STDIN_CLOSED.store(closed(libc::STDIN_FILENO), Ordering::Relaxed);
    STDOUT_CLOSED.store(closed(libc::STDOUT_FILENO), Ordering::Relaxed);
}

/// The error of a descriptor the process was started without.
fn closed_error() -> io::Error {
    io::Error::from_raw_os_error(libc::EBADF)
}

/// Standard input, or `EBADF` if the process was started without it.
pub fn stdin() -> io::Result<io::StdinLock<'static>> {
    if STDIN_CLOSED.load(Ordering::Relaxed) {
        return Err(closed_error());
    }
    Ok(io::stdin().lock())
}

/// Standard output, buffered: each write fails with `EBADF` if the process was started without
/// it.
pub struct Stdout {
    out: io::BufWriter<io::StdoutLock<'static>>,
    closed: bool,
}

impl Stdout {
    pub fn new() -> Stdout {
        Stdout {
            out: io::BufWriter::with_capacity(64 << 10, io::stdout().lock()),
            closed: STDOUT_CLOSED.load(Ordering::Relaxed),
        }
    }
}

impl io::Write for Stdout {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        if self.closed {
            return Err(closed_error());
        }
        self.out.write(bytes)
    }

    fn write_all(&mut self, bytes: &[u8]) -> io::Result<()> {
        if self.closed {
            return Err(closed_error());
        }
        self.out.write_all(bytes)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}
