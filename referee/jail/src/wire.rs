//! Messages between the referee, the zygote and a jail's init: `SOCK_SEQPACKET` datagrams
//! of bytes, each with up to [`MAX_FDS`] file descriptors passed as `SCM_RIGHTS`.

use std::io::{self, IoSlice, IoSliceMut};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};

use nix::cmsg_space;
use nix::sys::socket::{
    recvmsg, sendmsg, socketpair, AddressFamily, ControlMessage, ControlMessageOwned, MsgFlags,
    SockFlag, SockType,
};

/// Most descriptors one message carries.
pub(crate) const MAX_FDS: usize = 8;
/// Longest message (a spawn request is JSON of a few KiB).
pub(crate) const MAX_MESSAGE: usize = 256 * 1024;

/// A connected pair of `SOCK_SEQPACKET` sockets, close-on-exec.
pub(crate) fn pair() -> io::Result<(OwnedFd, OwnedFd)> {
    socketpair(
        AddressFamily::Unix,
        SockType::SeqPacket,
        None,
        SockFlag::SOCK_CLOEXEC,
    )
    .map_err(io::Error::from)
}

/// Sends one message with `fds`.
pub(crate) fn send(socket: RawFd, bytes: &[u8], fds: &[RawFd]) -> io::Result<()> {
    let iov = [IoSlice::new(bytes)];
    let cmsg = [ControlMessage::ScmRights(fds)];
    let cmsgs: &[ControlMessage] = if fds.is_empty() { &[] } else { &cmsg };
    loop {
        match sendmsg::<()>(socket, &iov, cmsgs, MsgFlags::MSG_NOSIGNAL, None) {
            Ok(_) => return Ok(()),
            Err(nix::errno::Errno::EINTR) => continue,
            Err(e) => return Err(e.into()),
        }
    }
}

/// Longest control message (`stop`, `exit <status>`, `setup <why>`...): what [`recv`] takes.
const CONTROL_MESSAGE: usize = 4096;

/// Receives one control message (blocking). `Ok(None)` at end of stream (the peer is gone).
/// Its buffer is on the stack: this runs twice a callback, in the jail's init and in the
/// referee, and a fresh heap buffer of [`MAX_MESSAGE`] cost a memset and page faults each
/// time.
pub(crate) fn recv(socket: RawFd) -> io::Result<Option<(Vec<u8>, Vec<OwnedFd>)>> {
    let mut buf = [0u8; CONTROL_MESSAGE];
    Ok(recv_into(socket, &mut buf)?.map(|(n, fds)| (buf[..n].to_vec(), fds)))
}

/// Receives one message into `buf` (blocking): its length and descriptors. `Ok(None)` at
/// end of stream. A message longer than `buf` is cut (`SOCK_SEQPACKET`).
pub(crate) fn recv_into(
    socket: RawFd,
    buf: &mut [u8],
) -> io::Result<Option<(usize, Vec<OwnedFd>)>> {
    let mut space = cmsg_space!([RawFd; MAX_FDS]);
    loop {
        let mut iov = [IoSliceMut::new(buf)];
        let msg = match recvmsg::<()>(
            socket,
            &mut iov,
            Some(&mut space),
            MsgFlags::MSG_CMSG_CLOEXEC,
        ) {
            Ok(msg) => msg,
            Err(nix::errno::Errno::EINTR) => continue,
            Err(e) => return Err(e.into()),
        };
        let mut fds = Vec::new();
        for cmsg in msg.cmsgs().map_err(io::Error::from)? {
            if let ControlMessageOwned::ScmRights(raw) = cmsg {
                // SAFETY: the kernel just installed these descriptors for us.
                fds.extend(
                    raw.into_iter()
                        .map(|fd| unsafe { OwnedFd::from_raw_fd(fd) }),
                );
            }
        }
        let n = msg.bytes;
        if n == 0 && fds.is_empty() {
            return Ok(None);
        }
        return Ok(Some((n, fds)));
    }
}

/// Waits up to `timeout_ms` (-1: for ever) for `fd` to be readable (or hung up).
pub(crate) fn wait_readable(fd: &impl AsRawFd, timeout_ms: i32) -> bool {
    let mut pfd = [nix::libc::pollfd {
        fd: fd.as_raw_fd(),
        events: nix::libc::POLLIN,
        revents: 0,
    }];
    loop {
        // SAFETY: one valid pollfd.
        let n = unsafe { nix::libc::poll(pfd.as_mut_ptr(), 1, timeout_ms) };
        if n < 0 && io::Error::last_os_error().raw_os_error() == Some(nix::libc::EINTR) {
            continue;
        }
        return n > 0;
    }
}
