//! Who holds a CPU claim of [`super`]: the owner (uid) of the Unix socket bound to its
//! abstract name, as the kernel's socket diagnostics tell it (`NETLINK_SOCK_DIAG`, the
//! `unix_diag` dump of the network namespace's Unix sockets, with their names and owners),
//! so that a claim another user holds in a referee's names (a squat) is told from one of
//! the referee's own user. No crate of the ecosystem reads `unix_diag`'s owner attribute
//! without an async runtime: the request and its answer are a few fixed-size records.

use nix::sys::socket::{
    recv, sendto, setsockopt, socket, sockopt, AddressFamily, MsgFlags, NetlinkAddr, SockFlag,
    SockProtocol, SockType,
};
use nix::sys::time::TimeVal;
use std::os::fd::AsRawFd;

/// `SOCK_DIAG_BY_FAMILY`: the request of a socket family's dump.
const SOCK_DIAG_BY_FAMILY: u16 = 20;
/// `NLM_F_REQUEST | NLM_F_DUMP`.
const REQUEST_DUMP: u16 = 0x1 | 0x300;
/// `NLMSG_ERROR`, `NLMSG_DONE`: the dump failed, or ended.
const ERROR: u16 = 2;
const DONE: u16 = 3;
/// `UDIAG_SHOW_NAME | UDIAG_SHOW_UID`: each socket's bound name and owner.
const SHOW_NAME_AND_UID: u32 = 0x1 | 0x40;
/// The attributes `UNIX_DIAG_NAME` and `UNIX_DIAG_UID`.
const NAME: u16 = 0;
const UID: u16 = 7;
/// The sizes of `struct nlmsghdr` and `struct unix_diag_msg`.
const HEADER: usize = 16;
const MESSAGE: usize = 16;

/// The uid of the owner of the Unix socket bound to the abstract name `name` in this
/// network namespace; `None` when none is bound or the kernel does not tell (no socket
/// diagnostics: a kernel older than 5.3 or without `CONFIG_UNIX_DIAG`).
pub fn holder(name: &str) -> Option<u32> {
    let fd = socket(
        AddressFamily::Netlink,
        SockType::Datagram,
        SockFlag::SOCK_CLOEXEC,
        SockProtocol::NetlinkSockDiag,
    )
    .ok()?;
    // The kernel answers a dump at once; a second is a bound, never a wait.
    setsockopt(&fd, sockopt::ReceiveTimeout, &TimeVal::new(1, 0)).ok()?;
    let mut request = Vec::with_capacity(HEADER + 24);
    request.extend_from_slice(&((HEADER + 24) as u32).to_ne_bytes());
    request.extend_from_slice(&SOCK_DIAG_BY_FAMILY.to_ne_bytes());
    request.extend_from_slice(&REQUEST_DUMP.to_ne_bytes());
    request.extend_from_slice(&1u32.to_ne_bytes()); // sequence
    request.extend_from_slice(&0u32.to_ne_bytes()); // port: the kernel
    request.push(nix::libc::AF_UNIX as u8);
    request.push(0); // protocol
    request.extend_from_slice(&0u16.to_ne_bytes()); // pad
    request.extend_from_slice(&u32::MAX.to_ne_bytes()); // every state
    request.extend_from_slice(&0u32.to_ne_bytes()); // any inode
    request.extend_from_slice(&SHOW_NAME_AND_UID.to_ne_bytes());
    request.extend_from_slice(&[0xff; 8]); // no cookie
    sendto(
        fd.as_raw_fd(),
        &request,
        &NetlinkAddr::new(0, 0),
        MsgFlags::empty(),
    )
    .ok()?;
    let mut wanted = vec![0u8];
    wanted.extend_from_slice(name.as_bytes());
    let mut buffer = vec![0u8; 64 * 1024];
    let mut found = None;
    loop {
        let n = recv(fd.as_raw_fd(), &mut buffer, MsgFlags::empty()).ok()?;
        if n == 0 {
            return found;
        }
        let mut at = 0;
        while at + HEADER <= n {
            let len = u32_at(&buffer, at)? as usize;
            let kind = u16::from_ne_bytes([buffer[at + 4], buffer[at + 5]]);
            if len < HEADER || at + len > n {
                return None;
            }
            match kind {
                DONE => return found,
                ERROR => return None,
                _ => {
                    if found.is_none() {
                        found = owner_if_named(&buffer[at + HEADER..at + len], &wanted);
                    }
                }
            }
            at += align(len);
        }
    }
}

/// The owner a socket's record (`unix_diag_msg` and its attributes) gives, if its bound
/// name is `wanted` (the abstract name with its leading NUL).
fn owner_if_named(record: &[u8], wanted: &[u8]) -> Option<u32> {
    let mut at = MESSAGE;
    let (mut named, mut uid) = (false, None);
    while at + 4 <= record.len() {
        let len = u16::from_ne_bytes([record[at], record[at + 1]]) as usize;
        let kind = u16::from_ne_bytes([record[at + 2], record[at + 3]]);
        if len < 4 || at + len > record.len() {
            break;
        }
        let data = &record[at + 4..at + len];
        match kind {
            NAME => named = data == wanted,
            UID => uid = u32_at(data, 0),
            _ => {}
        }
        at += align(len);
    }
    uid.filter(|_| named)
}

fn u32_at(bytes: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_ne_bytes(bytes.get(at..at + 4)?.try_into().ok()?))
}

/// A netlink length rounded up to its 4-byte alignment.
fn align(len: usize) -> usize {
    (len + 3) & !3
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_holder_of_a_bound_name_is_its_owner_and_an_unbound_one_has_none() {
        let name = format!("referee-holder-test/{}", std::process::id());
        assert_eq!(holder(&name), None);
        let _bound = super::super::hold_name(&name).expect("bound");
        assert_eq!(holder(&name), Some(super::super::euid()));
    }
}
