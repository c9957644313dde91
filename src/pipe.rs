//! The front ends' pipes. Whether anybody still reads what kanju writes: a front end whose reader has
//! gone away (a GUI that died, `kanju solve … | head` after `head` exited) stops its searches instead
//! of finishing them for nobody, even while it has nothing to write. And input read in lines of a
//! bounded length, so that endless input without a newline cannot fill the memory.

use std::io::{self, BufRead};

/// The longest input line kept (a USI command or a problem); a `position … moves …` of the longest
/// games is some 2 KiB.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// Reads the next line (without its `\n`) into `buf`: `Ok(None)` at the end of the input,
/// `Ok(Some(true))` for a line, `Ok(Some(false))` for a line longer than `max` bytes, which is read to
/// its end with only its first `max` bytes kept in `buf` (enough to tell a comment, never the whole).
pub fn read_line_capped(
    input: &mut impl BufRead,
    max: usize,
    buf: &mut Vec<u8>,
) -> io::Result<Option<bool>> {
    buf.clear();
    let (mut any, mut too_long) = (false, false);
    loop {
        let avail = match input.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if avail.is_empty() {
            return Ok(any.then_some(!too_long));
        }
        any = true;
        let end = avail.iter().position(|&b| b == b'\n');
        let chunk = &avail[..end.unwrap_or(avail.len())];
        if !too_long {
            let room = max - buf.len();
            too_long = chunk.len() > room;
            buf.extend_from_slice(&chunk[..chunk.len().min(room)]);
        }
        let used = end.map_or(avail.len(), |i| i + 1);
        input.consume(used);
        if end.is_some() {
            return Ok(Some(!too_long));
        }
    }
}

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

#[cfg(test)]
mod line_tests {
    use super::*;

    #[test]
    fn lines_are_read_whole_or_cut_when_too_long() {
        let text = b"short\nabcdefghij\nlast".to_vec();
        // A buffer smaller than a line: the line comes in several chunks.
        let mut input = io::BufReader::with_capacity(3, &text[..]);
        let mut buf = Vec::new();
        let mut got = vec![];
        while let Some(ok) = read_line_capped(&mut input, 8, &mut buf).unwrap() {
            got.push((ok, String::from_utf8(buf.clone()).unwrap()));
        }
        assert_eq!(
            got,
            [
                (true, "short".to_string()),
                (false, "abcdefgh".to_string()),
                (true, "last".to_string())
            ]
        );
    }
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
