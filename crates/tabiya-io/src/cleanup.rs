//! Files that must not outlive the process that made them: temporaries and lock files. Every
//! [`AtomicFile`](crate::AtomicFile) temporary and every [`WriteLock`](crate::WriteLock) file is
//! listed here while it lives; it leaves the list when it is renamed into place or removed.
//!
//! [`install_signal_handlers`] makes SIGINT, SIGTERM, SIGHUP and SIGPIPE remove every listed
//! file and then end the process by that same signal, so that the shell sees 128 + signal and a
//! calling script or `make` knows the run was interrupted (re-raising rather than `exit(130)`
//! is the convention of `cat`, `gzip` and `sort`). SIGPIPE is among them so that `tabiya … |
//! head` ends quietly as `cat` does: the reader went away, the output is cut short, and under
//! `set -o pipefail` the pipeline says so (status 141).
//!
//! How: the handler itself only notes the signal and writes its number to a pipe (both
//! async-signal-safe); a thread started by [`install_signal_handlers`] reads the pipe and does
//! the removing, where taking a lock and freeing memory are allowed. A multi-file commit holds
//! the list (`hold`) while it renames, so an interruption waits for the commit to finish
//! rather than leaving half a set. `libc` is used directly (it is already in the dependency
//! tree through memmap2): what is needed is four `sigaction`s and a pipe, not a crate.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::{Mutex, MutexGuard, Once};

/// Files to remove when the process is interrupted.
static LIVE: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());
/// The signal caught, 0 when none.
static CAUGHT: AtomicI32 = AtomicI32::new(0);
/// The write end of the pipe to the cleaning thread, -1 before installation.
static PIPE: AtomicI32 = AtomicI32::new(-1);

const SIGNALS: [libc::c_int; 4] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP, libc::SIGPIPE];

/// The list, whatever a panicking holder left in it (a list of paths cannot be half-updated).
pub(crate) fn hold() -> MutexGuard<'static, Vec<PathBuf>> {
    LIVE.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Lists `path` for removal on interruption.
pub(crate) fn register(path: &Path) {
    hold().push(path.to_path_buf());
}

/// Takes `path` off the list (it was renamed into place or removed).
pub(crate) fn unregister(path: &Path) {
    forget(&mut hold(), path);
}

/// Takes `path` off a list already held.
pub(crate) fn forget(list: &mut Vec<PathBuf>, path: &Path) {
    if let Some(i) = list.iter().rposition(|p| p == path) {
        list.swap_remove(i);
    }
}

/// Removes every listed file now (they are no longer wanted: the process is ending).
pub fn remove_all() {
    for path in hold().drain(..) {
        let _ = fs::remove_file(path);
    }
}

/// Installs the handlers for SIGINT, SIGTERM, SIGHUP and SIGPIPE described in the module
/// documentation. For programs, once at start (later calls do nothing); a library that
/// embeds tabiya and handles signals itself calls [`remove_all`] instead.
pub fn install_signal_handlers() {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        let mut fds = [0 as libc::c_int; 2];
        // SAFETY: `fds` has room for the two descriptors pipe writes.
        if unsafe { libc::pipe(fds.as_mut_ptr()) } != 0 {
            return;
        }
        let [read_end, write_end] = fds;
        PIPE.store(write_end, Ordering::SeqCst);
        std::thread::Builder::new()
            .name("tabiya-signals".into())
            .spawn(move || clean_on_signal(read_end))
            .expect("a thread for signals");
        for signal in SIGNALS {
            // SAFETY: a zeroed sigaction is valid; the handler only does async-signal-safe
            // work (an atomic store and write(2)).
            unsafe {
                let mut action: libc::sigaction = std::mem::zeroed();
                action.sa_sigaction = on_signal as *const () as libc::sighandler_t;
                action.sa_flags = libc::SA_RESTART;
                libc::sigemptyset(&mut action.sa_mask);
                libc::sigaction(signal, &action, std::ptr::null_mut());
            }
        }
    });
}

extern "C" fn on_signal(signal: libc::c_int) {
    if CAUGHT.compare_exchange(0, signal, Ordering::SeqCst, Ordering::SeqCst).is_ok() {
        let byte = signal as u8;
        // SAFETY: write(2) is async-signal-safe; the pipe lives as long as the process.
        unsafe { libc::write(PIPE.load(Ordering::SeqCst), (&byte as *const u8).cast(), 1) };
    }
}

/// The cleaning thread: waits for a signal, removes the listed files, dies of the signal.
fn clean_on_signal(read_end: libc::c_int) {
    let mut byte = 0u8;
    loop {
        // SAFETY: reads one byte into `byte`.
        let n = unsafe { libc::read(read_end, (&mut byte as *mut u8).cast(), 1) };
        if n == 1 {
            break;
        }
        if n == 0 {
            return;
        }
    }
    let signal = libc::c_int::from(byte);
    // Held to the end: no commit starts its renames after this.
    let mut list = hold();
    for path in list.drain(..) {
        let _ = fs::remove_file(path);
    }
    // SAFETY: restoring the default action and raising ends the process by `signal`.
    unsafe {
        libc::signal(signal, libc::SIG_DFL);
        libc::raise(signal);
        libc::_exit(128 + signal);
    }
}

/// When a signal was caught, waits for the cleaning thread to end the process instead of
/// going on: call it before reporting an error or exiting, since a write that failed because
/// of SIGPIPE (or a panic it caused) must not print a message or exit with another status
/// first. Returns at once when no signal was caught.
pub fn wait_if_interrupted() {
    if CAUGHT.load(Ordering::SeqCst) != 0 && PIPE.load(Ordering::SeqCst) >= 0 {
        loop {
            std::thread::park();
        }
    }
}
