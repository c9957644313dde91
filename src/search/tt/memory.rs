//! The table's memory: `n` empty clusters that cost nothing until the search touches them.
//!
//! An empty cluster is all zero bytes, and an anonymous memory mapping is zero-filled by the kernel
//! on first touch, page by page. So on Linux the clusters are a fresh mapping that is never written
//! up front: a solve pays for the pages its probes reach, not for the whole table. Writing every
//! cluster at allocation (as a `Vec` filled with `Cluster::default()` does) would fault in every
//! page at once, all of it kernel time, which on a short solve is far more than the search itself
//! (docs/benchmarks.md, *The table's memory*). A search that fills its table touches every page all
//! the same, in the same number of faults, but inside its own time: front ends that time searches
//! from a later start (USI from `go`, after the pause `isready` gives; `kanju bench` per problem)
//! back the whole table first with `Clusters::populate`, one kernel pass instead of a fault and a
//! write per page.
//!
//! The mapping starts on a 2 MiB boundary and asks for huge pages (`MADV_HUGEPAGE`; see the comment
//! on `mod memory` in `tt.rs` for why they pay), so every 2 MiB of clusters can be one huge page.
//! Elsewhere the clusters are an ordinary vector, written at allocation.

use super::Cluster;
use std::ops::{Deref, DerefMut};

/// `n` clusters, all empty at first, owned like a `Box<[Cluster]>`.
pub(super) struct Clusters {
    #[cfg(target_os = "linux")]
    map: linux::Mapping,
    #[cfg(not(target_os = "linux"))]
    vec: Vec<Cluster>,
}

impl Clusters {
    /// `n` (≥ 1) empty clusters; `None` when the memory cannot be had (an address-space limit such as
    /// `ulimit -v`, or more than the kernel will commit), so that the caller can ask for less.
    pub(super) fn new(n: usize) -> Option<Clusters> {
        #[cfg(target_os = "linux")]
        return linux::Mapping::new(n).map(|map| Clusters { map });
        #[cfg(not(target_os = "linux"))]
        {
            let mut vec: Vec<Cluster> = Vec::new();
            vec.try_reserve_exact(n).ok()?;
            vec.extend((0..n).map(|_| Cluster::EMPTY));
            Some(Clusters { vec })
        }
    }

    /// Backs every page now, as the search's first touches would (the contents stay as they are), so
    /// that a search timed from its start pays no page faults for the table. Linux asks the kernel to
    /// populate the range (`MADV_POPULATE_WRITE`, Linux 5.14); where it cannot (an older kernel, or
    /// not enough memory now), the pages are left to be backed on first touch, as without the call.
    /// Whether the pages are backed now.
    pub(super) fn populate(&mut self) -> bool {
        #[cfg(target_os = "linux")]
        return self.map.populate();
        #[cfg(not(target_os = "linux"))]
        return true;
    }
}

impl Deref for Clusters {
    type Target = [Cluster];

    #[inline(always)]
    fn deref(&self) -> &[Cluster] {
        #[cfg(target_os = "linux")]
        return self.map.as_slice();
        #[cfg(not(target_os = "linux"))]
        return &self.vec;
    }
}

impl DerefMut for Clusters {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [Cluster] {
        #[cfg(target_os = "linux")]
        return self.map.as_mut_slice();
        #[cfg(not(target_os = "linux"))]
        return &mut self.vec;
    }
}

/// The memory the table may still take, in bytes, where the system says (Linux): what the kernel
/// counts available (`MemAvailable`: free memory and what it can reclaim without swapping), and no
/// more than the process's memory cgroup leaves under its limit (a container's limit, which
/// `/proc/meminfo` does not show; `linux::cgroup_room`). `None` where unknown: then only the address
/// space limits the table.
pub(super) fn free_bytes() -> Option<usize> {
    #[cfg(target_os = "linux")]
    {
        let free = meminfo_bytes("MemAvailable")?.min(linux::cgroup_room());
        Some(usize::try_from(free).unwrap_or(usize::MAX))
    }
    #[cfg(not(target_os = "linux"))]
    None
}

/// A field of `/proc/meminfo` (`MemTotal`, `MemAvailable`, …) in bytes; `None` where there is no
/// such file (not Linux) or field.
pub(super) fn meminfo_bytes(field: &str) -> Option<u64> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    let kib: u64 = meminfo
        .lines()
        .find_map(|l| l.strip_prefix(field)?.strip_prefix(':'))?
        .split_whitespace()
        .next()?
        .parse()
        .ok()?;
    Some(kib.saturating_mul(1024))
}

#[cfg(target_os = "linux")]
mod linux {
    use super::Cluster;
    use std::ptr::NonNull;

    /// Huge pages are 2 MiB on x86-64 and on arm64 with 4 KiB base pages, the usual Linux setups.
    /// Elsewhere the alignment is merely wasted address space: nothing depends on it but speed.
    const HUGE_PAGE: usize = 2 << 20;

    /// A private anonymous mapping holding `len` clusters from `start`.
    pub(super) struct Mapping {
        /// The mapping as `mmap` returned it, and its length: what `munmap` takes back.
        base: NonNull<libc::c_void>,
        bytes: usize,
        /// The first cluster: `base` rounded up to a huge page.
        start: NonNull<Cluster>,
        len: usize,
    }

    // SAFETY: a `Mapping` owns its memory exclusively (no other value points into it, and it is unmapped
    // only when the `Mapping` is dropped), like a `Box<[Cluster]>`: moving it to another thread moves
    // that ownership, and a shared `&Mapping` only ever hands out `&[Cluster]`, whose words are atomics
    // (`Cluster: Sync`): sharing it between threads is sharing a `&[Cluster]`. So it is `Send` and
    // `Sync` exactly as `Box<[Cluster]>` is.
    unsafe impl Send for Mapping {}
    unsafe impl Sync for Mapping {}

    impl Mapping {
        pub(super) fn new(len: usize) -> Option<Mapping> {
            let size = len.checked_mul(std::mem::size_of::<Cluster>())?;
            // Room to round the start up to a huge page; the slack is address space, never touched.
            let bytes = size.checked_add(HUGE_PAGE)?;
            // SAFETY: a new private anonymous mapping (no address hint, no file) overlaps no memory the
            // program uses; the call only returns a fresh range or MAP_FAILED.
            let base = unsafe {
                libc::mmap(
                    std::ptr::null_mut(),
                    bytes,
                    libc::PROT_READ | libc::PROT_WRITE,
                    libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                    -1,
                    0,
                )
            };
            if base == libc::MAP_FAILED {
                return None;
            }
            let base = NonNull::new(base)?;
            let start = (base.as_ptr() as usize).next_multiple_of(HUGE_PAGE);
            // SAFETY: `madvise` reads and writes no memory; it records how the kernel should back the
            // range `start..start + size`, which lies inside the mapping made above (`start` is at most
            // `HUGE_PAGE` past its base, and the mapping is `size + HUGE_PAGE` long). MADV_HUGEPAGE
            // keeps every page's contents, so the range still reads as zeros. A refusal (transparent
            // huge pages off, an old kernel) is an error code, ignored: only the speed changes.
            let _ = unsafe { libc::madvise(start as *mut libc::c_void, size, libc::MADV_HUGEPAGE) };
            Some(Mapping {
                base,
                bytes,
                start: NonNull::new(start as *mut Cluster)?,
                len,
            })
        }

        pub(super) fn populate(&mut self) -> bool {
            let size = self.len * std::mem::size_of::<Cluster>();
            // SAFETY: as the advice in `new`, on the same range inside the mapping. MADV_POPULATE_WRITE
            // faults in every page of it as a write would, without changing any byte: pages not yet
            // backed become zero pages (which they already read as), pages backed stay as they are.
            // `&mut self` keeps every slice of the clusters out of use meanwhile. Failure (EINVAL
            // before Linux 5.14, ENOMEM, EHWPOISON) leaves the range valid and its contents unchanged.
            let r = unsafe {
                libc::madvise(self.start.as_ptr().cast(), size, libc::MADV_POPULATE_WRITE)
            };
            r == 0
        }

        #[inline(always)]
        pub(super) fn as_slice(&self) -> &[Cluster] {
            // SAFETY: `start..start + len` clusters lie inside the mapping (see `new`), which lives as
            // long as `self` (and, being mapped, spans less than `isize::MAX` bytes). `start` is a multiple of HUGE_PAGE, so aligned for `Cluster` (64 bytes).
            // Every byte reads as zero until written (anonymous mappings are zero-filled), all zeros
            // is a valid `Cluster` (atomic 64-bit words only, `repr(C)`; `empty_cluster_is_all_zero_bytes` checks
            // it is the empty one), and anything written since came through these slices as whole
            // `Cluster` values. Aliasing follows `&self`.
            unsafe { std::slice::from_raw_parts(self.start.as_ptr(), self.len) }
        }

        #[inline(always)]
        pub(super) fn as_mut_slice(&mut self) -> &mut [Cluster] {
            // SAFETY: as in `as_slice`; `&mut self` makes this the only reference into the mapping.
            unsafe { std::slice::from_raw_parts_mut(self.start.as_ptr(), self.len) }
        }
    }

    /// What the memory cgroups of the process leave under their limits, in bytes (`u64::MAX` where
    /// none is found): cgroup v2 (`memory.max` − `memory.current`) and v1 (`memory.limit_in_bytes` −
    /// `memory.usage_in_bytes`), the least over the directories `cgroup_dirs` lists. A limit of
    /// "max" does not parse: no cap there.
    pub(super) fn cgroup_room() -> u64 {
        let read =
            |path: &str| -> Option<u64> { std::fs::read_to_string(path).ok()?.trim().parse().ok() };
        let own = std::fs::read_to_string("/proc/self/cgroup").unwrap_or_default();
        cgroup_dirs(&own)
            .iter()
            .filter_map(|(dir, limit, usage)| {
                Some(
                    read(&format!("{dir}/{limit}"))?
                        .saturating_sub(read(&format!("{dir}/{usage}"))?),
                )
            })
            .min()
            .unwrap_or(u64::MAX)
    }

    /// The cgroup directories whose memory limits bind the process, from the text of
    /// `/proc/self/cgroup`: its own cgroup and every ancestor up to the mount's root, for v2 (`0::`
    /// lines, under `/sys/fs/cgroup`) and v1 (the `memory` controller's line, under
    /// `/sys/fs/cgroup/memory`), each with its limit and usage file names. A limit set on any
    /// ancestor caps all of its descendants (a service's slice above a session scope, say), so
    /// reading only the own cgroup and the root would miss it. The roots are listed even without the
    /// file: a container sees its own cgroup there.
    pub(super) fn cgroup_dirs(own: &str) -> Vec<(String, &'static str, &'static str)> {
        const V2: (&str, &str, &str) = ("/sys/fs/cgroup", "memory.max", "memory.current");
        const V1: (&str, &str, &str) = (
            "/sys/fs/cgroup/memory",
            "memory.limit_in_bytes",
            "memory.usage_in_bytes",
        );
        let mut dirs: Vec<(String, &'static str, &'static str)> = [V2, V1]
            .iter()
            .map(|&(root, limit, usage)| (root.to_string(), limit, usage))
            .collect();
        for line in own.lines() {
            let (path, (root, limit, usage)) = if let Some(path) = line.strip_prefix("0::") {
                (path, V2)
            } else if let Some((_, path)) = line.split_once(":memory:") {
                (path, V1)
            } else {
                continue;
            };
            // "/a/b/c" gives "/a/b/c", "/a/b" and "/a"; the root itself is already listed.
            let mut dir = path.trim_end_matches('/');
            while !dir.is_empty() {
                let entry = (format!("{root}{dir}"), limit, usage);
                if !dirs.contains(&entry) {
                    dirs.push(entry);
                }
                dir = &dir[..dir.rfind('/').unwrap_or(0)];
            }
        }
        dirs
    }

    impl Drop for Mapping {
        fn drop(&mut self) {
            // SAFETY: `base` and `bytes` are exactly what `mmap` returned and was asked for, unmapped
            // once, here; no slice into the mapping outlives `self`.
            unsafe {
                libc::munmap(self.base.as_ptr(), self.bytes);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The mapping is only sound (and only empty) if an all-zero cluster is the empty one.
    #[test]
    fn empty_cluster_is_all_zero_bytes() {
        let c = Cluster::EMPTY;
        // SAFETY: reads the bytes of a live, fully initialised `repr(C)` value of atomic 64-bit words
        // with no padding between them (the size assertion in `cluster.rs` pins the layout), while
        // no other reference to it exists.
        let bytes = unsafe {
            std::slice::from_raw_parts(
                (&c as *const Cluster).cast::<u8>(),
                std::mem::size_of::<Cluster>(),
            )
        };
        assert!(bytes.iter().all(|&b| b == 0));
    }

    /// A limit on any ancestor of the process's cgroup binds it (a slice above the session's scope):
    /// every level is read, for v2 and for v1's memory controller, each once; other v1 controllers
    /// and malformed lines add nothing.
    #[cfg(target_os = "linux")]
    #[test]
    fn cgroup_dirs_walk_up_to_the_root() {
        let own = "12:cpu,cpuacct:/x/y\n4:memory:/user.slice/user-0.slice/session-1.scope\n\
                   0::/user.slice/user-0.slice/\nnonsense\n";
        let dirs: Vec<(String, &str)> = linux::cgroup_dirs(own)
            .into_iter()
            .map(|(dir, limit, _)| (dir, limit))
            .collect();
        let want = [
            ("/sys/fs/cgroup", "memory.max"),
            ("/sys/fs/cgroup/memory", "memory.limit_in_bytes"),
            (
                "/sys/fs/cgroup/memory/user.slice/user-0.slice/session-1.scope",
                "memory.limit_in_bytes",
            ),
            (
                "/sys/fs/cgroup/memory/user.slice/user-0.slice",
                "memory.limit_in_bytes",
            ),
            ("/sys/fs/cgroup/memory/user.slice", "memory.limit_in_bytes"),
            ("/sys/fs/cgroup/user.slice/user-0.slice", "memory.max"),
            ("/sys/fs/cgroup/user.slice", "memory.max"),
        ];
        let want: Vec<(String, &str)> = want.iter().map(|&(d, l)| (d.to_string(), l)).collect();
        assert_eq!(dirs, want);
        // A process in the root cgroup ("0::/") reads the roots only.
        assert_eq!(linux::cgroup_dirs("0::/\n").len(), 2);
        assert_eq!(linux::cgroup_dirs("").len(), 2);
    }

    /// Fresh clusters read as empty, take writes anywhere, and are aligned for huge pages on Linux.
    #[test]
    fn fresh_clusters_are_empty_and_writable() {
        for n in [1, 7, 4096, (8 << 20) / std::mem::size_of::<Cluster>()] {
            let mut c = Clusters::new(n).expect("a small table can be had");
            assert_eq!(c.len(), n);
            assert!(c.iter().all(|x| x.keys() == [0; super::super::CLUSTER]));
            c[n - 1].set_key_word(3, 42);
            c[0].set_key_word(0, 7);
            assert_eq!((c[0].keys()[0], c[n - 1].keys()[3]), (7, 42));
            #[cfg(target_os = "linux")]
            assert_eq!(c.as_ptr() as usize % (2 << 20), 0);
        }
    }

    /// Pages of `c` (its first `n` clusters) that are backed by memory, by `mincore`.
    #[cfg(target_os = "linux")]
    fn resident(c: &Clusters, n: usize) -> usize {
        const PAGE: usize = 4096;
        let len = n * std::mem::size_of::<Cluster>();
        let mut pages = vec![0u8; len.div_ceil(PAGE)];
        // SAFETY: `mincore` writes one byte per page of the range into `pages`, which has exactly that
        // many; the range is the clusters' own (page-aligned: it starts on a huge page) and is only
        // inspected, not read or written.
        let r = unsafe { libc::mincore(c.as_ptr() as *mut libc::c_void, len, pages.as_mut_ptr()) };
        assert_eq!(r, 0, "mincore failed");
        pages.iter().filter(|&&p| p & 1 != 0).count()
    }

    /// The point of the mapping: a fresh table holds no memory until the search touches it, and a
    /// write brings in only the page (at most one huge page) around the cluster written. A table
    /// written at allocation fails the first assertion.
    #[cfg(target_os = "linux")]
    #[test]
    fn fresh_clusters_take_no_memory_until_touched() {
        let n = (64 << 20) / std::mem::size_of::<Cluster>();
        let mut c = Clusters::new(n).expect("64 MiB can be had");
        assert_eq!(resident(&c, n), 0);
        c[n / 2].set_key_word(0, 2);
        let r = resident(&c, n);
        assert!((1..=512).contains(&r), "{r} pages resident after one write");
    }

    /// `populate` backs every page and changes no cluster (where the kernel has
    /// `MADV_POPULATE_WRITE`; elsewhere it says it could not).
    #[cfg(target_os = "linux")]
    #[test]
    fn populate_backs_every_page_and_keeps_the_contents() {
        let n = (8 << 20) / std::mem::size_of::<Cluster>();
        let mut c = Clusters::new(n).expect("8 MiB can be had");
        c[5].set_key_word(1, 9);
        if c.populate() {
            assert_eq!(resident(&c, n), (n * std::mem::size_of::<Cluster>()) / 4096);
        }
        assert_eq!(c[5].keys()[1], 9);
        assert!(
            c.iter()
                .filter(|x| x.keys() != [0; super::super::CLUSTER])
                .count()
                == 1
        );
    }

    /// A table the address space cannot hold is an answer (`None`), not an abort: sizes whose bytes
    /// overflow, and (on 64-bit systems) 2^63 bytes, which no kernel maps.
    #[test]
    fn an_impossible_size_is_refused() {
        assert!(Clusters::new(usize::MAX).is_none());
        assert!(Clusters::new(usize::MAX / 256).is_none());
        assert!(Clusters::new(usize::MAX / 512).is_none());
    }
}
