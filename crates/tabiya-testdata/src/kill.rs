//! Writers killed after every step of their commit. The killed writer is the test binary run
//! again as a child: each test crate has one ignored test that calls [`child`] with its
//! writer, and its tests call [`killed_at_every_step`]. After each kill the next open (which
//! recovers an interrupted commit) must find the old files or the new ones, byte for byte.

use std::collections::BTreeMap;
use std::fs;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// A commit-step hook: called with each step's number as the commit goes.
pub type StepHook = Box<dyn FnMut(usize) + Send + 'static>;

/// SIGKILL's number (9 on every Unix).
const SIGKILL: i32 = 9;

/// The body of a crate's ignored child test (named `child_test` in [`killed_at_every_step`]):
/// runs `write_new(case, dir, hook)` for the case and directory its parent chose, with a hook
/// that kills the process after the step its parent chose, as a crash would.
pub fn child(write_new: impl FnOnce(&str, &Path, StepHook)) {
    let var = |name: &str| std::env::var(name).expect("run as a child of killed_at_every_step");
    let (case, dir) = (var("TABIYA_TEST_CASE"), PathBuf::from(var("TABIYA_TEST_DIR")));
    let kill_at: Option<usize> = std::env::var("TABIYA_TEST_KILL_AT").ok().map(|n| n.parse().unwrap());
    write_new(
        &case,
        &dir,
        Box::new(move |step| {
            if Some(step) == kill_at {
                // Nothing after this step runs.
                let _ = Command::new("kill").args(["-KILL", &std::process::id().to_string()]).status();
                loop {
                    std::thread::park();
                }
            }
        }),
    );
}

fn run_child(child_test: &str, case: &str, dir: &Path, kill_at: Option<usize>) -> std::process::ExitStatus {
    let mut command = Command::new(std::env::current_exe().unwrap());
    command
        .args(["--ignored", "--exact", child_test, "--test-threads=1", "--quiet"])
        .env("TABIYA_TEST_CASE", case)
        .env("TABIYA_TEST_DIR", dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    if let Some(n) = kill_at {
        command.env("TABIYA_TEST_KILL_AT", n.to_string());
    }
    command.status().unwrap()
}

/// The files of `dir` by name, but for hidden ones (a killed writer's temporaries, journal and
/// lock, which the next writer or reader deals with).
pub fn listing(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap())
        .map(|e| (e.file_name().into_string().unwrap(), e.path()))
        .filter(|(name, _)| !name.starts_with('.'))
        .map(|(name, path)| (name, fs::read(path).unwrap()))
        .collect()
}

/// Kills the writer of `case` (run by the ignored test `child_test`) after each step of its
/// commit over the files `write_old` makes, and checks what `open` (the next reader, which
/// recovers) leaves: the old files when killed before the journal is written (step 0), the
/// new ones after; and that an unkilled run ends with the new ones after at least three steps.
pub fn killed_at_every_step(child_test: &str, case: &str, write_old: impl Fn(&Path), open: impl Fn(&Path)) {
    let old_dir = tempfile::tempdir().unwrap();
    write_old(old_dir.path());
    let old = listing(old_dir.path());
    let new_dir = tempfile::tempdir().unwrap();
    write_old(new_dir.path());
    assert!(run_child(child_test, case, new_dir.path(), None).success(), "{case}: the writer fails unkilled");
    let new = listing(new_dir.path());
    assert_ne!(old, new, "{case}: the writer changes nothing");
    let mut step = 0;
    loop {
        let dir = tempfile::tempdir().unwrap();
        for (name, bytes) in &old {
            fs::write(dir.path().join(name), bytes).unwrap();
        }
        let status = run_child(child_test, case, dir.path(), Some(step));
        open(dir.path());
        let found = listing(dir.path());
        if status.success() {
            assert!(found == new, "{case}: finished without the new files");
            assert!(step > 2, "{case}: a commit has at least a journal, a rename and the journal's removal");
            break;
        }
        assert_eq!(status.signal(), Some(SIGKILL), "{case}: step {step}");
        let (expected, which) = if step == 0 { (&old, "old") } else { (&new, "new") };
        assert!(found == *expected, "{case}: killed after step {step}, the files are not the {which} ones");
        step += 1;
    }
}
