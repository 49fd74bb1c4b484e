//! A command in a real pseudo-terminal: `/bin/sh -c COMMAND` as the leader of its own
//! session and process group, with the PTY as its controlling terminal.

use std::os::fd::{BorrowedFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Stdio};

/// A pseudo-terminal: the master side for us, the slave side for the child.
fn open(cols: u16, rows: u16) -> Result<(OwnedFd, OwnedFd), String> {
    use rustix::fs::{Mode, OFlags};
    use rustix::pty::{OpenptFlags, grantpt, openpt, ptsname, unlockpt};
    let err = |what: &str, e: rustix::io::Errno| format!("cannot open a pseudo-terminal ({what}): {e}");
    let master = openpt(OpenptFlags::RDWR | OpenptFlags::NOCTTY | OpenptFlags::CLOEXEC).map_err(|e| err("posix_openpt", e))?;
    grantpt(&master).map_err(|e| err("grantpt", e))?;
    unlockpt(&master).map_err(|e| err("unlockpt", e))?;
    let name = ptsname(&master, Vec::new()).map_err(|e| err("ptsname", e))?;
    let slave = rustix::fs::open(name.as_c_str(), OFlags::RDWR | OFlags::NOCTTY | OFlags::CLOEXEC, Mode::empty()).map_err(|e| err("open slave", e))?;
    let size = rustix::termios::Winsize { ws_row: rows, ws_col: cols, ws_xpixel: 0, ws_ypixel: 0 };
    rustix::termios::tcsetwinsize(&slave, size).map_err(|e| err("set window size", e))?;
    Ok((master, slave))
}

/// A started command: the child and the master side of its terminal.
pub struct Running {
    pub child: Child,
    pub master: std::fs::File,
}

/// Starts `/bin/sh -c command` in `cwd` on a new PTY of `cols` x `rows`.
pub fn spawn(command: &str, cwd: &str, cols: u16, rows: u16) -> Result<Running, String> {
    let (master, slave) = open(cols, rows)?;
    let child = {
        let stdio = |fd: &OwnedFd| fd.try_clone().map(Stdio::from).map_err(|e| format!("cannot duplicate the terminal: {e}"));
        let mut cmd = Command::new("/bin/sh");
        cmd.arg("-c").arg(command).current_dir(cwd).env("TERM", "xterm-256color").env("COLUMNS", cols.to_string()).env("LINES", rows.to_string());
        cmd.stdin(stdio(&slave)?).stdout(stdio(&slave)?).stderr(stdio(&slave)?);
        // SAFETY: only async-signal-safe system calls between fork and exec.
        unsafe {
            cmd.pre_exec(|| {
                rustix::process::setsid()?;
                rustix::process::ioctl_tiocsctty(BorrowedFd::borrow_raw(0))?;
                Ok(())
            });
        }
        cmd.spawn().map_err(|e| format!("cannot start /bin/sh in {cwd}: {e}"))?
        // `cmd` and its copies of the slave side are dropped here.
    };
    drop(slave); // the master reads EOF (EIO) once the child and its children close theirs
    Ok(Running { child, master: std::fs::File::from(master) })
}

/// What one wait for output gave.
pub enum Read {
    /// Bytes from the terminal.
    Data(usize),
    /// Nothing within the timeout.
    Idle,
    /// Every slave side is closed: the command and its children are gone.
    End,
}

/// Reads what the terminal has, waiting at most `timeout_ms` (`None`: as long as it takes).
pub fn read(master: &mut std::fs::File, buf: &mut [u8], timeout_ms: Option<u64>) -> Result<Read, String> {
    use rustix::event::{PollFd, PollFlags, Timespec, poll};
    use std::io::Read as _;
    if let Some(ms) = timeout_ms {
        let timeout = Timespec { tv_sec: i64::try_from(ms / 1000).unwrap_or(i64::MAX), tv_nsec: i64::try_from((ms % 1000) * 1_000_000).unwrap_or(0) };
        let mut fds = [PollFd::new(&*master, PollFlags::IN)];
        match poll(&mut fds, Some(&timeout)) {
            Ok(0) => return Ok(Read::Idle),
            Ok(_) => {}
            Err(rustix::io::Errno::INTR) => return Ok(Read::Idle),
            Err(e) => return Err(format!("cannot wait for the terminal: {e}")),
        }
    }
    loop {
        return match master.read(buf) {
            Ok(0) => Ok(Read::End),
            Ok(n) => Ok(Read::Data(n)),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) if e.raw_os_error() == Some(rustix::io::Errno::IO.raw_os_error()) => Ok(Read::End), // Linux: every slave fd closed
            Err(e) => Err(format!("cannot read the terminal: {e}")),
        };
    }
}

/// Sends `signal` to the process group `pid` leads (the shell and what it started).
pub fn kill_group(pid: u32, signal: rustix::process::Signal) {
    if let Some(pid) = i32::try_from(pid).ok().and_then(rustix::process::Pid::from_raw) {
        let _ = rustix::process::kill_process_group(pid, signal);
    }
}

/// The name of signal `n`, as `TerminalExitStatus.signal` carries it.
pub fn signal_name(n: i32) -> String {
    const NAMES: [&str; 32] = [
        "",
        "SIGHUP",
        "SIGINT",
        "SIGQUIT",
        "SIGILL",
        "SIGTRAP",
        "SIGABRT",
        "SIGBUS",
        "SIGFPE",
        "SIGKILL",
        "SIGUSR1",
        "SIGSEGV",
        "SIGUSR2",
        "SIGPIPE",
        "SIGALRM",
        "SIGTERM",
        "SIGSTKFLT",
        "SIGCHLD",
        "SIGCONT",
        "SIGSTOP",
        "SIGTSTP",
        "SIGTTIN",
        "SIGTTOU",
        "SIGURG",
        "SIGXCPU",
        "SIGXFSZ",
        "SIGVTALRM",
        "SIGPROF",
        "SIGWINCH",
        "SIGIO",
        "SIGPWR",
        "SIGSYS",
    ];
    usize::try_from(n).ok().and_then(|i| NAMES.get(i)).filter(|s| !s.is_empty()).map_or_else(|| format!("SIG{n}"), |s| (*s).to_string())
}
