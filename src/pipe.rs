//! Whether anybody still reads what kanju writes: a front end whose reader has gone away (a GUI that
//! died, `kanju solve … | head` after `head` exited) stops its searches instead of finishing them for
//! nobody, even while it has nothing to write.

/// Whether nobody can read what is written to `fd` any more: `poll` reports `POLLERR` on a pipe whose
/// read end is closed and `POLLHUP` on a hung-up terminal or socket; a file or a live reader reports
/// neither (with no events asked for, those are the only bits it can set besides `POLLNVAL`, which a
/// closed descriptor gives and which is not counted: the writes themselves will say so).
#[cfg(target_os = "linux")]
pub fn reader_gone(fd: i32) -> bool {
    let mut p = libc::pollfd {
        fd,
        events: 0,
        revents: 0,
    };
    // SAFETY: `poll` is given one valid `pollfd` it may write (`revents`) and its count, 1; a zero
    // timeout makes it return at once. It touches no other memory, whatever `fd` is.
    let n = unsafe { libc::poll(&mut p, 1, 0) };
    n == 1 && p.revents & (libc::POLLERR | libc::POLLHUP) != 0
}

#[cfg(not(target_os = "linux"))]
pub fn reader_gone(_fd: i32) -> bool {
    false
}

/// `reader_gone` for the process's standard output.
pub fn stdout_gone() -> bool {
    reader_gone(1)
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;
    use std::os::fd::AsRawFd;

    /// A pipe's write end: not gone while its read end is open, gone once it is closed.
    #[test]
    fn a_pipe_whose_reader_closed_is_gone() {
        let mut fds = [0i32; 2];
        // SAFETY: `pipe` writes two descriptors into the array it is given, of length 2.
        assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
        let [read, write] = fds;
        assert!(!reader_gone(write));
        // SAFETY: `read` is a descriptor this test opened and closes once.
        unsafe { libc::close(read) };
        assert!(reader_gone(write));
        // SAFETY: likewise `write`.
        unsafe { libc::close(write) };
    }

    #[test]
    fn a_file_is_never_gone() {
        let path = std::env::temp_dir().join(format!("kanju-pipe-{}", std::process::id()));
        let file = std::fs::File::create(&path).unwrap();
        assert!(!reader_gone(file.as_raw_fd()));
        drop(file);
        let _ = std::fs::remove_file(path);
    }
}
