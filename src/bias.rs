//! `BiasedRwLock`: a read-write lock that lets an object's users skip it while nobody else
//! needs it, so that the calls of the C API take no atomic read-modify-write in the common
//! cases (performance issue).
//!
//! Why: taking and releasing a lock are two atomic read-modify-writes on the object's lock word,
//! about 8 ns of a 20 ns call. Info objects are mostly used in two ways: one thread sets hints
//! and reads them back, or many threads read hints that no longer change. The lock is built for
//! both (the "BRAVO" scheme of Dice and Kogan, USENIX ATC 2019, with an asymmetric fence instead
//! of their compare-and-swap, and an owner mode after the same idea):
//!
//! - Each thread owns one *indicator* in a process-wide table. A thread that wants to skip the
//!   lock stores the lock's address in its indicator, then checks the lock's `bias`: if the
//!   lock is biased to readers and it wants to read, or biased to this very thread (its
//!   *owner*) whatever it wants, it goes ahead without the lock and clears its indicator when
//!   done. Otherwise it clears the indicator and takes the lock.
//! - Anyone who takes the lock and finds it biased in a way that excludes what it wants to do
//!   (every writer; a reader when the lock has an owner) *revokes* the bias: it clears `bias`,
//!   runs a process-wide memory barrier (`membarrier(2)`) and waits until no indicator holds
//!   this lock. Then nobody is inside without the lock, and nobody can enter but through it.
//!   The barrier is what lets the fast side use a plain store and a compiler fence instead of a
//!   full fence: either the revoker sees an indicator, or its thread sees `bias` cleared.
//! - Bias comes back on its own: after [`ENABLE_AFTER`] reads through the lock with no write in
//!   between, the lock is biased to readers; after `ENABLE_AFTER` writes through the lock in a
//!   row by one thread, with no other thread reading through it in between, it is biased to
//!   that thread. A revocation costs a barrier and a scan of the indicators (about 0.2–1 µs),
//!   so at most one access in `ENABLE_AFTER` pays for one.
//!
//! Whenever the fast path is not available, threads take the lock as before: when the kernel
//! has no `membarrier`, when a thread finds no free indicator, or when a thread is already
//! inside another lock without taking it (one indicator each).

use std::cell::Cell;
use std::ops::{Deref, DerefMut};

use crate::sync::{
    fence, AtomicU32, AtomicUsize, ConstPtr, MutPtr, Ordering, RwLock, RwLockReadGuard,
    RwLockWriteGuard, UnsafeCell,
};

/// Reads through the lock with no write in between after which the lock is biased to readers,
/// and writes through it in a row by one thread after which it is biased to that thread
/// (module comment). The model-checked build biases it sooner, so that its models reach the
/// fast paths: to readers after one read, to an owner after three writes (so that the handle
/// table's models, where threads create an object and change it once, mostly take the lock,
/// and stay small enough to check).
#[cfg(not(loom))]
pub(crate) const ENABLE_AFTER: u32 = 256;
#[cfg(not(loom))]
pub(crate) const OWN_AFTER: u32 = 256;
#[cfg(loom)]
pub(crate) const ENABLE_AFTER: u32 = 1;
#[cfg(loom)]
pub(crate) const OWN_AFTER: u32 = 3;

/// `bias` values: every access takes the lock; readers may skip it. Any other value is an
/// owner's token ([`token`]): that thread may read and write without the lock.
const UNBIASED: u32 = 0;
const READERS: u32 = 1;
/// A thread's token: its indicator's position plus two, so that it is neither of the above.
/// Zero ([`UNBIASED`]) stands for "no token" where a token is expected.
fn token(indicator: usize) -> u32 {
    indicator as u32 + 2
}
const _: () = assert!(INDICATORS < (u32::MAX - 2) as usize);

/// A read-write lock over `T` that its users may skip while it is biased (module comment).
pub(crate) struct BiasedRwLock<T> {
    lock: RwLock<()>,
    /// [`UNBIASED`], [`READERS`] or an owner's token. Set by holders of `lock` (to
    /// `READERS` while holding it shared, to a token while holding it exclusively) and cleared
    /// only by a holder of `lock` exclusively, which then waits out everyone inside.
    bias: AtomicU32,
    /// Reads through `lock` since the last write; approximate (concurrent readers may lose
    /// increments), which only delays the bias.
    slow_reads: AtomicU32,
    /// The token of the last thread that wrote through `lock`, and how many writes in a row it
    /// made with no other thread reading through `lock` in between.
    writer: AtomicU32,
    writes: AtomicU32,
    data: UnsafeCell<T>,
}

// SAFETY: `data` is reached as `&mut T` only by a writer that holds `lock` exclusively and has
// revoked every bias (so nobody else is inside), or by the lock's owner, which is inside only
// while `bias` holds its token, and then nobody else is (a token is set only by a holder of the
// lock exclusively, and everyone else must take the lock and revoke it first). Otherwise only as
// `&T`, by readers holding `lock` shared or admitted by the readers' bias. That is an RwLock's
// discipline, which needs T to be Send (moved between threads through `&mut`) and Sync (shared
// between readers).
unsafe impl<T: Send + Sync> Sync for BiasedRwLock<T> {}
// SAFETY: owning the lock owns the `T` inside it.
unsafe impl<T: Send> Send for BiasedRwLock<T> {}

impl<T: Default> Default for BiasedRwLock<T> {
    fn default() -> Self {
        BiasedRwLock {
            lock: RwLock::new(()),
            bias: AtomicU32::new(UNBIASED),
            slow_reads: AtomicU32::new(0),
            writer: AtomicU32::new(UNBIASED),
            writes: AtomicU32::new(0),
            data: UnsafeCell::new(T::default()),
        }
    }
}

impl<T> BiasedRwLock<T> {
    fn address(&self) -> usize {
        self as *const Self as usize
    }

    /// Shared access: without the lock if it is biased to readers or to this thread,
    /// otherwise through it.
    #[inline(always)]
    pub(crate) fn read(&self) -> ReadGuard<'_, T> {
        self.read_fast().unwrap_or_else(|| self.read_slow())
    }

    /// [`read`](Self::read) through the lock, for a caller whose [`read_fast`](Self::read_fast)
    /// just failed: trying again would fail again.
    pub(crate) fn read_slow(&self) -> ReadGuard<'_, T> {
        // The lock first, then the pointer: under loom, taking the pointer starts the access.
        let locked = self.read_locked();
        ReadGuard { data: self.data.get(), _fast: None, _locked: Some(locked) }
    }

    /// [`read`](Self::read) where it skips the lock; `None` where it would take it.
    #[inline(always)]
    pub(crate) fn read_fast(&self) -> Option<ReadGuard<'_, T>> {
        let fast = self.fast_reader(mine)?;
        Some(ReadGuard { data: self.data.get(), _fast: Some(fast), _locked: None })
    }

    /// [`read_fast`](Self::read_fast) for a thread whose indicator is its home (nearly every
    /// thread: see [`home_of`]); `None` for the others too. It calls no function, so a caller
    /// that tries it first and makes a whole call only if it fails can keep its first attempt
    /// in the registers a function may use without saving them.
    #[inline(always)]
    pub(crate) fn read_quick(&self) -> Option<ReadGuard<'_, T>> {
        let fast = self.fast_reader(mine_at_home)?;
        Some(ReadGuard { data: self.data.get(), _fast: Some(fast), _locked: None })
    }

    #[inline(always)]
    fn fast_reader(&self, mine: impl FnOnce() -> Mine) -> Option<Visible> {
        // A first look without announcing anything, which is all that an object without a bias
        // costs: only the check after the announcement decides.
        if self.bias.load(Ordering::Relaxed) == UNBIASED {
            return None;
        }
        Visible::announce(self.address(), mine).filter(|visible| {
            light_barrier();
            let bias = self.bias.load(Ordering::Acquire);
            bias == READERS || bias == visible.token
        })
    }

    #[cold]
    #[inline(never)]
    fn read_locked(&self) -> RwLockReadGuard<'_, ()> {
        loop {
            let guard = self.lock.read();
            // Relaxed: a token is stored by an exclusive holder of `lock`, and taking it shared
            // ordered that store before this load.
            if self.bias.load(Ordering::Relaxed) <= READERS {
                self.count_slow_read();
                return guard;
            }
            // The lock has an owner, who may be writing without it: take the object back.
            drop(guard);
            drop(self.exclusive());
        }
    }

    /// Called with `lock` held shared.
    fn count_slow_read(&self) {
        if self.writes.load(Ordering::Relaxed) != 0 && self.writer.load(Ordering::Relaxed) != own_token() {
            self.writes.store(0, Ordering::Relaxed);
        }
        let reads = self.slow_reads.load(Ordering::Relaxed);
        if reads < ENABLE_AFTER {
            self.slow_reads.store(reads + 1, Ordering::Relaxed);
        } else if self.bias.load(Ordering::Relaxed) == UNBIASED && barrier_available() {
            // Release: a fast reader that sees the flag sees every write made before the
            // last writer released the lock, which happened before this reader took it.
            self.bias.store(READERS, Ordering::Release);
        }
    }

    /// Exclusive access: without the lock if it is biased to this thread, otherwise through it,
    /// after revoking any bias.
    #[inline(always)]
    pub(crate) fn write(&self) -> WriteGuard<'_, T> {
        self.write_fast().unwrap_or_else(|| self.write_slow())
    }

    /// [`write`](Self::write) through the lock, as [`read_slow`](Self::read_slow) is for reads.
    pub(crate) fn write_slow(&self) -> WriteGuard<'_, T> {
        // As in `read_slow`: the lock before the pointer.
        let locked = self.write_locked();
        WriteGuard { data: self.data.get_mut(), _fast: None, _locked: Some(locked) }
    }

    /// [`write`](Self::write) where it skips the lock; `None` where it would take it.
    #[inline(always)]
    pub(crate) fn write_fast(&self) -> Option<WriteGuard<'_, T>> {
        let fast = self.fast_writer(mine)?;
        Some(WriteGuard { data: self.data.get_mut(), _fast: Some(fast), _locked: None })
    }

    /// [`write_fast`](Self::write_fast) for a thread whose indicator is its home, as
    /// [`read_quick`](Self::read_quick) is for reads.
    #[inline(always)]
    pub(crate) fn write_quick(&self) -> Option<WriteGuard<'_, T>> {
        let fast = self.fast_writer(mine_at_home)?;
        Some(WriteGuard { data: self.data.get_mut(), _fast: Some(fast), _locked: None })
    }

    #[inline(always)]
    fn fast_writer(&self, mine: impl FnOnce() -> Mine) -> Option<Visible> {
        // As in `fast_reader`: only an owner's token can admit a writer.
        if self.bias.load(Ordering::Relaxed) <= READERS {
            return None;
        }
        Visible::announce(self.address(), mine).filter(|visible| {
            light_barrier();
            self.bias.load(Ordering::Acquire) == visible.token
        })
    }

    #[cold]
    #[inline(never)]
    fn write_locked(&self) -> RwLockWriteGuard<'_, ()> {
        let guard = self.exclusive();
        let me = own_token();
        if me != UNBIASED {
            let writes = if self.writer.load(Ordering::Relaxed) == me {
                self.writes.load(Ordering::Relaxed).saturating_add(1)
            } else {
                self.writer.store(me, Ordering::Relaxed);
                1
            };
            self.writes.store(writes, Ordering::Relaxed);
            if writes >= OWN_AFTER && barrier_available() {
                // Nobody is inside (`exclusive`), and until `guard` is released nobody else can
                // take the lock; after that, others find the token and revoke it first.
                self.bias.store(me, Ordering::Relaxed);
            }
        }
        guard
    }

    /// Takes the lock exclusively and revokes any bias: then nobody else is inside. The caller
    /// must not itself be inside this lock without taking it (it would wait for itself); no
    /// call of the C API nests two accesses to one object.
    fn exclusive(&self) -> RwLockWriteGuard<'_, ()> {
        let guard = self.lock.write();
        self.slow_reads.store(0, Ordering::Relaxed);
        // Relaxed: `bias` is stored only by holders of `lock`, and taking it ordered those
        // stores before this load.
        if self.bias.load(Ordering::Relaxed) != UNBIASED {
            self.bias.store(UNBIASED, Ordering::Relaxed);
            heavy_barrier();
            readers().wait_until_none_reads(self.address());
        }
        guard
    }
}

/// Shared access to the data of a [`BiasedRwLock`]: either `fast` (this thread's indicator
/// names the lock) or `_locked` is set.
pub(crate) struct ReadGuard<'a, T> {
    // Declared first, so dropped first: the access ends before the indicator or lock is released.
    data: ConstPtr<T>,
    _fast: Option<Visible>,
    _locked: Option<RwLockReadGuard<'a, ()>>,
}

impl<T> ReadGuard<'_, T> {
    /// The memo of this thread's indicator, if this access skipped the lock (then the thread
    /// holds one).
    pub(crate) fn memo(&self) -> Option<&'static ThreadMemo> {
        self._fast.as_ref().map(|fast| &fast.indicator.memo)
    }
}

impl<T> Deref for ReadGuard<'_, T> {
    type Target = T;
    fn deref(&self) -> &T {
        // SAFETY: either the lock is held shared, or this thread's indicator names the lock and
        // the lock was biased to readers or to this thread after the indicator became visible:
        // then whoever wants to change the data revokes the bias and waits for this guard to
        // drop first (`BiasedRwLock::exclusive`).
        unsafe { self.data.deref() }
    }
}

/// Exclusive access to the data of a [`BiasedRwLock`]: either `fast` or `_locked` is set.
pub(crate) struct WriteGuard<'a, T> {
    data: MutPtr<T>,
    _fast: Option<Visible>,
    _locked: Option<RwLockWriteGuard<'a, ()>>,
}

impl<T> Deref for WriteGuard<'_, T> {
    type Target = T;
    fn deref(&self) -> &T {
        // SAFETY: as in `deref_mut`.
        unsafe { self.data.deref() }
    }
}

impl<T> DerefMut for WriteGuard<'_, T> {
    fn deref_mut(&mut self) -> &mut T {
        // SAFETY: either the lock is held exclusively after `exclusive` waited out everyone
        // inside without it (and nobody enters while it is held: the bias is revoked, or set
        // to this thread's token only), or this thread's indicator names the lock and the lock
        // was biased to this thread after the indicator became visible: then nobody else is
        // inside, and whoever comes takes the lock and waits for this guard to drop first.
        unsafe { self.data.deref() }
    }
}

// ---- The indicators ----

/// Threads that can read fast at the same time; further threads always take the lock.
#[cfg(not(loom))]
const INDICATORS: usize = 128;
#[cfg(loom)]
const INDICATORS: usize = 4;

/// One thread's announcement of the lock it is reading without taking it (0: none). One cache
/// line each: a fast read stores to it twice, and threads must not contend for the line.
#[repr(align(64))]
struct Indicator {
    reading: AtomicUsize,
    /// The owning thread ([`this_thread`]), or 0 while the indicator is free.
    owner: AtomicUsize,
    memo: ThreadMemo,
}

/// Two words a thread keeps with its indicator from one call to the next, on the line its fast
/// accesses touch anyway (the C API notes there which key `get_nthkey` last wrote, and where).
/// Only the thread that holds the indicator uses them. A thread that takes an indicator over
/// finds what the previous holder left, so what they hold is a guess, to be checked by whoever
/// reads them.
pub(crate) struct ThreadMemo {
    first: AtomicUsize,
    second: AtomicUsize,
}

impl ThreadMemo {
    #[cfg(not(loom))]
    const fn new() -> ThreadMemo {
        ThreadMemo { first: AtomicUsize::new(0), second: AtomicUsize::new(0) }
    }

    #[cfg(loom)]
    fn new() -> ThreadMemo {
        ThreadMemo { first: AtomicUsize::new(0), second: AtomicUsize::new(0) }
    }

    // Relaxed: only the holder's thread stores or loads these words while it holds them, and
    // taking an indicator over is ordered after giving it back (`claim`'s Acquire).
    pub(crate) fn set(&self, first: usize, second: usize) {
        self.first.store(first, Ordering::Relaxed);
        self.second.store(second, Ordering::Relaxed);
    }

    /// What [`set`](Self::set) stored last on this indicator, or zeros.
    pub(crate) fn get(&self) -> (usize, usize) {
        (self.first.load(Ordering::Relaxed), self.second.load(Ordering::Relaxed))
    }
}

struct Readers {
    indicators: [Indicator; INDICATORS],
    /// Indicators at and above this position have never been owned.
    high_water: AtomicUsize,
}

#[cfg(not(loom))]
fn readers() -> &'static Readers {
    static READERS: Readers = Readers {
        indicators: [const { Indicator { reading: AtomicUsize::new(0), owner: AtomicUsize::new(0), memo: ThreadMemo::new() } }; INDICATORS],
        high_water: AtomicUsize::new(0),
    };
    &READERS
}

#[cfg(loom)]
fn readers() -> &'static Readers {
    loom::lazy_static! {
        static ref READERS: Readers = Readers {
            indicators: std::array::from_fn(|_| Indicator {
                reading: AtomicUsize::new(0),
                owner: AtomicUsize::new(0),
                memo: ThreadMemo::new(),
            }),
            high_water: AtomicUsize::new(0),
        };
    }
    &READERS
}

impl Readers {
    /// A free indicator, now owned by thread `me`: its home if that is free, or else the first
    /// free one.
    fn claim(&self, me: usize) -> Option<usize> {
        let home = home_of(me);
        let at = (home..INDICATORS).chain(0..home).find(|&at| {
            self.indicators[at].owner.compare_exchange(0, me, Ordering::Acquire, Ordering::Relaxed).is_ok()
        })?;
        // Before the indicator is first used, so a writer that scans up to `high_water` after
        // its barrier cannot miss a reader that could still see `bias` set (as for `reading`).
        self.high_water.fetch_max(at + 1, Ordering::SeqCst);
        Some(at)
    }

    fn release(&self, at: usize) {
        self.indicators[at].owner.store(0, Ordering::Release);
    }

    /// Waits until no indicator names `lock`. Fast reads are short (one call's lookup and copy),
    /// so this spins first, then yields, then sleeps ([`back_off`]) in case a reader's thread
    /// is not running.
    fn wait_until_none_reads(&self, lock: usize) {
        let scanned = self.high_water.load(Ordering::Acquire);
        for indicator in &self.indicators[..scanned] {
            let mut spins = 0u32;
            // Acquire: the reader's last access to the data happens before the writer's first.
            while indicator.reading.load(Ordering::Acquire) == lock {
                spins = spins.saturating_add(1);
                back_off(spins);
            }
        }
    }
}

/// One turn of a writer's wait for a reader. A reader that is still inside after some spins and
/// yields has most likely lost its processor; then sleeping gives the processor away, where a
/// yield on a busy machine may hand it straight back to the writer (seen with more threads than
/// cores: writers waited up to 0.26 s with yields alone).
#[cfg(not(loom))]
fn back_off(turn: u32) {
    match turn {
        0..=63 => std::hint::spin_loop(),
        64..=127 => std::thread::yield_now(),
        _ => std::thread::sleep(std::time::Duration::from_micros(50)),
    }
}
/// loom must see a yield on every turn of a waiting loop.
#[cfg(loom)]
fn back_off(_turn: u32) {
    loom::thread::yield_now();
}

/// Where a thread looks for its indicator first: a hash of its identity. A thread that owns
/// its home indicator finds it without a thread-local lookup (which in a shared library is a
/// call into the dynamic linker); threads whose home was taken fall back to [`MINE`].
fn home_of(me: usize) -> usize {
    // In 64 bits whatever the target, so that the multiplier fits (the result is below
    // INDICATORS, so it fits any usize).
    ((me as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (u64::BITS - INDICATORS.trailing_zeros())) as usize
}
const _: () = assert!(INDICATORS.is_power_of_two());

/// The calling thread's identity: non-zero, and different from every other running thread's.
/// On x86-64 Linux the word at `%fs:0` is the thread control block's pointer to itself (the ELF
/// TLS ABI, variant II, which glibc and musl follow); elsewhere `pthread_self`.
#[cfg(all(not(loom), target_os = "linux", target_arch = "x86_64"))]
#[inline(always)]
fn this_thread() -> usize {
    let tcb: usize;
    // SAFETY: reads the thread pointer's first word, which the ABI guarantees for every thread;
    // it touches no memory Rust knows of and changes nothing.
    unsafe {
        std::arch::asm!("mov {}, qword ptr fs:[0]", out(reg) tcb, options(nostack, preserves_flags, readonly, pure))
    };
    tcb
}
#[cfg(all(not(loom), not(all(target_os = "linux", target_arch = "x86_64"))))]
#[inline(always)]
fn this_thread() -> usize {
    // SAFETY: no preconditions.
    unsafe { libc::pthread_self() as usize }
}
/// Under loom every thread looks its indicator up in [`MINE`]; owners are marked with 1.
#[cfg(loom)]
fn this_thread() -> usize {
    1
}

/// This thread's indicator if it is not its home: `UNCLAIMED` until its first use, `NONE` when
/// it has none.
const UNCLAIMED: usize = usize::MAX;
const NONE: usize = usize::MAX - 1;

#[cfg(not(loom))]
std::thread_local! {
    // Constant-initialised and without destructor, so its first use allocates nothing and
    // registers nothing; the indicator is given back by a pthread key destructor instead.
    static MINE: Cell<usize> = const { Cell::new(UNCLAIMED) };
}
#[cfg(loom)]
loom::thread_local! {
    static MINE: Cell<usize> = Cell::new(UNCLAIMED);
}

/// A thread's indicator and its token, if the thread has one (what [`mine`] and
/// [`mine_at_home`] find).
type Mine = Option<(&'static Indicator, u32)>;

/// This thread's indicator and token, claiming one on first use; `None` if it has none.
#[inline(always)]
fn mine() -> Mine {
    mine_at_home().or_else(mine_elsewhere)
}

/// This thread's indicator and token if the indicator is its home; `None` otherwise, and
/// always under loom.
#[inline(always)]
fn mine_at_home() -> Mine {
    #[cfg(not(loom))]
    {
        let me = this_thread();
        let home = home_of(me);
        let indicator = &readers().indicators[home];
        // Relaxed: only this thread stores its own identity (no other running thread has it).
        if indicator.owner.load(Ordering::Relaxed) == me {
            return Some((indicator, token(home)));
        }
    }
    None
}

#[cold]
#[inline(never)]
fn mine_elsewhere() -> Mine {
    let at = match MINE.with(Cell::get) {
        UNCLAIMED => first_claim()?,
        NONE => return None,
        at => at,
    };
    Some((&readers().indicators[at], token(at)))
}

/// A thread's indicator, naming the lock it is inside without taking it; cleared on drop.
struct Visible {
    indicator: &'static Indicator,
    token: u32,
}

impl Visible {
    /// Stores `lock` in this thread's indicator, which `mine` finds, or `None` when the thread
    /// cannot go in fast.
    #[inline(always)]
    fn announce(lock: usize, mine: impl FnOnce() -> Mine) -> Option<Visible> {
        let (indicator, token) = mine()?;
        // Only this thread stores to its indicator: non-zero means a fast access is in progress
        // further up this thread's stack, and the indicator cannot name two locks.
        if indicator.reading.load(Ordering::Relaxed) != 0 {
            return None;
        }
        indicator.reading.store(lock, Ordering::Relaxed);
        Some(Visible { indicator, token })
    }
}

/// The thread's first use of an indicator: claims one, or records that it has none.
#[cold]
#[inline(never)]
fn first_claim() -> Option<usize> {
    let at = claim_for_this_thread();
    MINE.with(|mine| mine.set(at.unwrap_or(NONE)));
    at
}

/// This thread's token, claiming its indicator if it has none yet; [`UNBIASED`] if it cannot
/// have one. (A thread's indicator outlives its fast accesses: it is what a token names.)
fn own_token() -> u32 {
    mine().map_or(UNBIASED, |(_, token)| token)
}

impl Drop for Visible {
    fn drop(&mut self) {
        // Release: pairs with the waiting writer's Acquire load.
        self.indicator.reading.store(0, Ordering::Release);
    }
}

// ---- Barriers and thread exit: the operating system's part ----

/// Orders a reader's indicator store before its load of `bias`, together with the writer's
/// [`heavy_barrier`]. Natively a compiler fence: membarrier makes it a full fence when needed.
#[cfg(not(loom))]
fn light_barrier() {
    std::sync::atomic::compiler_fence(Ordering::SeqCst);
}

/// A full memory barrier on every running thread of the process (`membarrier(2)`, private
/// expedited; registered by [`barrier_available`] before any lock can be biased).
#[cfg(not(loom))]
fn heavy_barrier() {
    fence(Ordering::SeqCst);
    // SAFETY: a plain system call with integer arguments.
    let status = unsafe { libc::syscall(libc::SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) };
    if status != 0 {
        // Not expected once registration succeeded (its errors are for unregistered or unknown
        // commands), but if the process lost its registration the global command, which needs
        // none, gives the same guarantee, only more slowly.
        // SAFETY: as above.
        unsafe { libc::syscall(libc::SYS_membarrier, MEMBARRIER_CMD_GLOBAL, 0, 0) };
    }
    fence(Ordering::SeqCst);
}

/// loom knows no membarrier: the model uses a sequentially consistent fence on both sides,
/// which gives the same guarantee for this protocol (either the writer's load after its fence
/// sees the reader's store, or the reader's load after its fence sees the writer's).
#[cfg(loom)]
fn light_barrier() {
    fence(Ordering::SeqCst);
}
#[cfg(loom)]
fn heavy_barrier() {
    fence(Ordering::SeqCst);
}

#[cfg(not(loom))]
const MEMBARRIER_CMD_GLOBAL: libc::c_int = 1;
#[cfg(not(loom))]
const MEMBARRIER_CMD_PRIVATE_EXPEDITED: libc::c_int = 1 << 3;
#[cfg(not(loom))]
const MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED: libc::c_int = 1 << 4;

/// Whether writers can run [`heavy_barrier`]; registers the process the first time.
#[cfg(not(loom))]
fn barrier_available() -> bool {
    static AVAILABLE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *AVAILABLE.get_or_init(|| {
        // SAFETY: a plain system call with integer arguments.
        unsafe { libc::syscall(libc::SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0 }
    })
}
#[cfg(loom)]
fn barrier_available() -> bool {
    true
}

/// Claims an indicator for the calling thread and arranges for it to be given back when the
/// thread exits; `None` if none is free or the arrangement cannot be made.
#[cfg(not(loom))]
fn claim_for_this_thread() -> Option<usize> {
    let key = exit_key()?;
    let at = readers().claim(this_thread())?;
    // SAFETY: `key` was created by pthread_key_create; the value is an integer, never
    // dereferenced (non-null so that the destructor runs).
    if unsafe { libc::pthread_setspecific(key, (at + 1) as *const libc::c_void) } != 0 {
        readers().release(at);
        return None;
    }
    Some(at)
}

#[cfg(loom)]
fn claim_for_this_thread() -> Option<usize> {
    readers().claim(this_thread())
}

/// A pthread key whose destructor gives a thread's indicator back when the thread exits.
/// (A `thread_local!` with a destructor would do the same, but registering it allocates, and
/// its failure aborts the process.)
#[cfg(not(loom))]
fn exit_key() -> Option<libc::pthread_key_t> {
    static KEY: std::sync::OnceLock<Option<libc::pthread_key_t>> = std::sync::OnceLock::new();
    *KEY.get_or_init(|| {
        let mut key: libc::pthread_key_t = 0;
        // SAFETY: `key` is a valid place for the new key; `give_back` has the destructor's type.
        (unsafe { libc::pthread_key_create(&mut key, Some(give_back)) } == 0).then_some(key)
    })
}

#[cfg(not(loom))]
extern "C" fn give_back(value: *mut libc::c_void) {
    let at = value as usize - 1;
    // A call from a later destructor on this thread must not use the indicator any more.
    let _ = MINE.try_with(|mine| mine.set(NONE));
    readers().release(at);
}

/// Runs `f` on a new thread whose indicator is its home, where the quick variants can go in.
/// Threads that find their home owned by another live thread wait until the search ends, so
/// that each try is a thread with a new identity (one that exits gives its place, and often
/// its identity, to the next).
#[cfg(all(test, not(loom)))]
pub(crate) fn on_a_thread_at_home<R: Send + 'static>(f: impl FnOnce() -> R + Send + 'static) -> R {
    use std::sync::{mpsc, Arc, RwLock};
    let search = Arc::new(RwLock::new(()));
    let searching = search.write().unwrap();
    let mut others: Vec<std::thread::JoinHandle<Option<R>>> = Vec::new();
    for _ in 0..INDICATORS {
        let (report, reported) = mpsc::channel();
        let (give, job) = mpsc::channel::<Box<dyn FnOnce() -> R + Send>>();
        let search = Arc::clone(&search);
        let thread = std::thread::spawn(move || {
            // The first access claims this thread's indicator: its home if that is free.
            let at_home = own_token() != UNBIASED && mine_at_home().is_some();
            report.send(at_home).unwrap();
            if at_home {
                return Some(job.recv().unwrap()());
            }
            drop(search.read());
            None
        });
        if reported.recv().unwrap() {
            give.send(Box::new(f)).unwrap();
            let result = thread.join();
            drop(searching);
            others.into_iter().for_each(|other| drop(other.join()));
            return result.unwrap_or_else(|panic| std::panic::resume_unwind(panic)).unwrap();
        }
        others.push(thread);
    }
    panic!("no new thread found its home indicator free");
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;

    #[derive(Default)]
    struct Twins {
        a: u64,
        b: u64,
    }

    fn make_biased<T>(lock: &BiasedRwLock<T>) {
        for _ in 0..=ENABLE_AFTER {
            drop(lock.read());
        }
    }

    #[test]
    fn reads_set_the_bias_and_a_write_clears_it() {
        assert!(barrier_available(), "membarrier(2) is missing: the fast path is never used here");
        let lock = BiasedRwLock::<Twins>::default();
        for _ in 0..ENABLE_AFTER {
            drop(lock.read());
        }
        assert_eq!(lock.bias.load(Ordering::Relaxed), UNBIASED, "set too early");
        drop(lock.read());
        assert_eq!(lock.bias.load(Ordering::Relaxed), READERS);
        let fast = lock.read();
        assert!(fast._fast.is_some());
        // A second read on the same thread while the first is held: through the lock.
        assert!(lock.read()._fast.is_none());
        drop(fast);
        lock.write().a = 1;
        assert_eq!(lock.bias.load(Ordering::Relaxed), UNBIASED);
        assert!(lock.read()._fast.is_none());
        assert_eq!(lock.read().a, 1);
    }

    /// Readers on other threads never see a half-made change, whether they read fast or
    /// through the lock, while a writer keeps changing the data and revoking the bias.
    #[test]
    fn readers_see_whole_changes_while_a_writer_revokes() {
        let lock = Arc::new(BiasedRwLock::<Twins>::default());
        let readers: Vec<_> = (0..3)
            .map(|_| {
                let lock = Arc::clone(&lock);
                std::thread::spawn(move || {
                    let (mut fast, mut last) = (0u64, 0u64);
                    while last < 300 {
                        let data = lock.read();
                        assert_eq!(data.a, data.b, "a reader saw a change half made");
                        assert!(data.a >= last, "a reader went back in time");
                        last = data.a;
                        fast += u64::from(data._fast.is_some());
                    }
                    fast
                })
            })
            .collect();
        for n in 1..=300 {
            // Enough reads between writes for the bias to come back on most rounds.
            make_biased(&*lock);
            let mut data = lock.write();
            data.a = n;
            std::thread::yield_now();
            data.b = n;
        }
        let fast: u64 = readers.into_iter().map(|r| r.join().unwrap()).sum();
        assert!(fast > 0, "no read took the fast path");
    }

    fn make_owned<T>(lock: &BiasedRwLock<T>) {
        for _ in 0..OWN_AFTER {
            drop(lock.write());
        }
    }

    /// `read_fast` and `write_fast` go in exactly where `read` and `write` would skip the lock,
    /// and a failed attempt changes nothing: the owner keeps its bias after another thread's
    /// attempts.
    #[test]
    fn fast_only_accesses_go_in_only_where_the_lock_is_skipped() {
        let lock = Arc::new(BiasedRwLock::<Twins>::default());
        assert!(lock.read_fast().is_none() && lock.write_fast().is_none(), "no bias yet");
        make_biased(&*lock);
        assert!(lock.read_fast().is_some());
        assert!(lock.write_fast().is_none(), "the readers' bias admits no writer");
        let held = lock.read_fast().unwrap();
        assert!(lock.read_fast().is_none(), "an indicator names one access at a time");
        drop(held);
        make_owned(&*lock);
        lock.write_fast().unwrap().a = 5;
        assert_eq!(lock.read_fast().unwrap().a, 5);
        let other = Arc::clone(&lock);
        std::thread::spawn(move || assert!(other.read_fast().is_none() && other.write_fast().is_none()))
            .join()
            .unwrap();
        assert!(lock.write_fast().is_some(), "a failed attempt took the object from its owner");
    }

    /// The quick variants go in where the fast ones do, but only for a thread whose indicator
    /// is its home; a thread whose home is taken goes in with the fast variants only.
    #[test]
    fn quick_accesses_go_in_only_from_a_thread_at_its_home() {
        let lock = Arc::new(BiasedRwLock::<Twins>::default());
        assert!(lock.read_quick().is_none() && lock.write_quick().is_none(), "no bias yet");
        let at_home = Arc::clone(&lock);
        on_a_thread_at_home(move || {
            let lock = &*at_home;
            make_biased(lock);
            assert!(lock.read_quick().is_some());
            assert!(lock.write_quick().is_none(), "the readers' bias admits no writer");
            make_owned(lock);
            lock.write_quick().unwrap().a = 7;
            assert_eq!(lock.read_quick().unwrap().a, 7);
        });
        std::thread::spawn(move || {
            // Taken before this thread's first access, which then claims another indicator.
            let home = &readers().indicators[home_of(this_thread())];
            let squatter = 1; // no thread's identity: a pointer to the thread control block
            let squatted = home.owner.compare_exchange(0, squatter, Ordering::AcqRel, Ordering::Relaxed).is_ok();
            make_biased(&*lock);
            assert!(lock.read_fast().is_some());
            assert!(lock.read_quick().is_none(), "not at home");
            make_owned(&*lock);
            assert!(lock.write_fast().is_some());
            assert!(lock.write_quick().is_none() && lock.read_quick().is_none(), "not at home");
            if squatted {
                home.owner.store(0, Ordering::Release);
            }
        })
        .join()
        .unwrap();
    }

    /// Writes in a row by one thread make it the owner: its reads and writes then skip the
    /// lock. A read on another thread takes the object back and sees the owner's last write;
    /// so does a write, and a read from the owner's thread in between resets nothing.
    #[test]
    fn writes_in_a_row_make_an_owner_and_others_take_the_object_back() {
        let lock = Arc::new(BiasedRwLock::<Twins>::default());
        for _ in 1..OWN_AFTER {
            drop(lock.write());
            drop(lock.read());
        }
        assert_eq!(lock.bias.load(Ordering::Relaxed), UNBIASED, "set too early");
        drop(lock.write());
        let me = lock.bias.load(Ordering::Relaxed);
        assert!(me > READERS, "no owner after {OWN_AFTER} writes in a row");
        {
            let mut data = lock.write();
            assert!(data._fast.is_some());
            data.a = 7;
            data.b = 7;
        }
        assert!(lock.read()._fast.is_some());
        let seen = {
            let lock = Arc::clone(&lock);
            std::thread::spawn(move || {
                let data = lock.read();
                (data.a, data.b, data._fast.is_none())
            })
            .join()
            .unwrap()
        };
        assert_eq!(seen, (7, 7, true));
        assert_eq!(lock.bias.load(Ordering::Relaxed), UNBIASED);
        assert!(lock.write()._fast.is_none());

        // Taken back by a write from another thread, which starts its own run of writes.
        make_owned(&*lock);
        assert_eq!(lock.bias.load(Ordering::Relaxed), me);
        lock.write().a = 8;
        let other = {
            let lock = Arc::clone(&lock);
            std::thread::spawn(move || {
                let mut data = lock.write();
                let seen = data.a;
                data.b = 9;
                (seen, lock.writes.load(Ordering::Relaxed))
            })
            .join()
            .unwrap()
        };
        assert_eq!(other, (8, 1));
        assert_eq!(lock.read().b, 9);
        assert_eq!(lock.bias.load(Ordering::Relaxed), UNBIASED);
    }

    /// An owner that keeps changing the data, winning the bias back again and again, while
    /// other threads read: nobody sees a change half made, nor an older state after a newer.
    #[test]
    fn readers_see_whole_changes_while_an_owner_writes() {
        let lock = Arc::new(BiasedRwLock::<Twins>::default());
        let done = Arc::new(AtomicBool::new(false));
        let readers: Vec<_> = (0..3)
            .map(|_| {
                let (lock, done) = (Arc::clone(&lock), Arc::clone(&done));
                std::thread::spawn(move || {
                    let mut last = 0u64;
                    while !done.load(Ordering::Relaxed) {
                        let data = lock.read();
                        assert_eq!(data.a, data.b, "a reader saw a change half made");
                        assert!(data.a >= last, "a reader went back in time");
                        last = data.a;
                        drop(data);
                        std::thread::sleep(std::time::Duration::from_micros(200));
                    }
                })
            })
            .collect();
        let mut fast = 0u64;
        for n in 1..=200_000 {
            let mut data = lock.write();
            fast += u64::from(data._fast.is_some());
            data.a = n;
            // Widens the window in which a reader that is let in wrongly sees a half change.
            for _ in 0..20 {
                std::hint::spin_loop();
            }
            data.b = n;
        }
        done.store(true, Ordering::Relaxed);
        readers.into_iter().for_each(|r| r.join().unwrap());
        assert!(fast > 0, "no write took the fast path");
    }

    /// Threads alive at the same time have different indicators, also when their homes
    /// collide (64 threads in 128 homes almost always share some), and each finds its own again.
    #[test]
    fn threads_alive_together_have_their_own_indicators() {
        let start = Arc::new(std::sync::Barrier::new(64));
        let stop = Arc::new(std::sync::Barrier::new(64));
        let threads: Vec<_> = (0..64)
            .map(|_| {
                let (start, stop) = (Arc::clone(&start), Arc::clone(&stop));
                std::thread::spawn(move || {
                    start.wait();
                    let (first, token) = mine().expect("an indicator for each of 64 threads");
                    let again = mine().expect("the same indicator again");
                    assert!(std::ptr::eq(first, again.0) && token == again.1);
                    let home = home_of(this_thread());
                    stop.wait();
                    (token, home)
                })
            })
            .collect();
        let mut seen: Vec<(u32, usize)> = threads.into_iter().map(|t| t.join().unwrap()).collect();
        let mut homes: Vec<usize> = seen.iter().map(|&(_, home)| home).collect();
        homes.sort_unstable();
        homes.dedup();
        seen.sort_unstable();
        seen.dedup_by_key(|&mut (token, _)| token);
        assert_eq!(seen.len(), 64, "two threads alive at once shared an indicator");
        // 64 random homes among 128 are all different with probability about e^-16: some
        // threads here took the fallback.
        assert!(homes.len() < 64, "no two homes collided, so the fallback went untested");
    }

    /// A thread's indicator is given back when it exits, so threads that come and go do not
    /// use them up (there are `INDICATORS`).
    #[test]
    fn indicators_are_given_back_when_threads_exit() {
        let lock = Arc::new(BiasedRwLock::<Twins>::default());
        make_biased(&*lock);
        for _ in 0..2 * INDICATORS {
            let lock = Arc::clone(&lock);
            let fast = std::thread::spawn(move || lock.read()._fast.is_some()).join().unwrap();
            assert!(fast, "a new thread found no free indicator");
        }
    }
}

/// Model-checked tests (`make loom`): every interleaving of a fast reader with a writer.
#[cfg(all(test, loom))]
mod loom_tests {
    use super::*;
    use loom::sync::Arc;
    use loom::thread;

    #[derive(Default)]
    struct Twins {
        a: u32,
        b: u32,
    }

    fn make_biased(lock: &BiasedRwLock<Twins>) {
        for _ in 0..=ENABLE_AFTER {
            drop(lock.read());
        }
        assert_eq!(lock.bias.load(Ordering::Relaxed), READERS);
    }

    fn make_owned(lock: &BiasedRwLock<Twins>) {
        for _ in 0..OWN_AFTER {
            drop(lock.write());
        }
        assert!(lock.bias.load(Ordering::Relaxed) > READERS, "writes in a row make an owner");
    }

    /// Changes both fields under one write, so that a reader can tell a change half made.
    fn set_twins(lock: &BiasedRwLock<Twins>, n: u32) {
        let mut data = lock.write();
        data.a = n;
        data.b = n;
    }

    /// A writer changes the data only when no fast reader is inside: loom's cell checks every
    /// access against every other, and the reader sees the change whole or not at all.
    #[test]
    fn a_writer_waits_for_fast_readers() {
        loom::model(|| {
            let lock = Arc::new(BiasedRwLock::<Twins>::default());
            make_biased(&lock);
            let reader = {
                let lock = Arc::clone(&lock);
                thread::spawn(move || {
                    let data = lock.read();
                    assert_eq!(data.a, data.b);
                    data.a
                })
            };
            set_twins(&lock, 1);
            assert!(reader.join().unwrap() <= 1);
            assert_eq!(lock.read().a, 1);
        });
    }

    /// After a write, a reader's reads through the lock set the bias again, and its next read
    /// is fast; a second write races with all of them: the reader never sees a change half
    /// made, and sees the first write or the second.
    #[test]
    fn the_bias_comes_back_and_is_revoked_again() {
        loom::model(|| {
            let lock = Arc::new(BiasedRwLock::<Twins>::default());
            make_biased(&lock);
            set_twins(&lock, 1);
            let reader = {
                let lock = Arc::clone(&lock);
                thread::spawn(move || {
                    for _ in 0..=ENABLE_AFTER + 1 {
                        let data = lock.read();
                        assert_eq!(data.a, data.b);
                        assert!(data.a >= 1);
                    }
                })
            };
            set_twins(&lock, 2);
            reader.join().unwrap();
            assert_eq!(lock.read().b, 2);
        });
    }

    /// An owner writes without the lock while another thread reads: the reader takes the
    /// object back first, so it sees the owner's change whole or not at all, and the owner's
    /// next write, through the lock, is seen by the end.
    #[test]
    fn a_reader_takes_the_object_from_its_owner() {
        loom::model(|| {
            let lock = Arc::new(BiasedRwLock::<Twins>::default());
            make_owned(&lock);
            let reader = {
                let lock = Arc::clone(&lock);
                thread::spawn(move || {
                    let data = lock.read();
                    assert_eq!(data.a, data.b);
                    data.a
                })
            };
            for n in 1..=2 {
                set_twins(&lock, n);
            }
            assert!(reader.join().unwrap() <= 2);
            assert_eq!(lock.read().a, 2);
        });
    }

    /// Two threads write, one of them the owner: each write is made alone (loom's cell checks
    /// the accesses) and neither is lost.
    #[test]
    fn a_writer_takes_the_object_from_its_owner() {
        loom::model(|| {
            let lock = Arc::new(BiasedRwLock::<Twins>::default());
            make_owned(&lock);
            let other = {
                let lock = Arc::clone(&lock);
                thread::spawn(move || lock.write().a += 1)
            };
            lock.write().b += 1;
            other.join().unwrap();
            let data = lock.read();
            assert_eq!((data.a, data.b), (1, 1));
        });
    }
}
