//! The names of the connected clients: one connection holds a name; a connection whose
//! client has closed it gives its name up to a newcomer at once, even while its thread
//! still ends its work (a game's record, the bot's exit), so that a program run again
//! right after its game ends (as contestants run theirs, in a loop) takes its name back.
//! A name taken with its token (registered, proven) is taken from a connection that holds
//! it without one, or with a token the organiser replaced since (`register` again): a name
//! taken while it was nobody's and registered since, or by a token that leaked and was
//! replaced, never keeps its owner out (that connection is closed).

use nix::errno::Errno;
use nix::sys::socket::{recv, MsgFlags};
use std::collections::HashMap;
use std::net::TcpStream;
use std::os::fd::AsRawFd;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// Who holds each name.
#[derive(Default)]
pub struct Names {
    held: Mutex<HashMap<String, Holder>>,
    next: AtomicU64,
}

struct Holder {
    id: u64,
    /// A second handle on the holder's socket, to see it closed (`None`: never seen so).
    stream: Option<TcpStream>,
    /// The token it proved the name with; `None`: it took a name nobody registered.
    token: Option<String>,
}

/// A name held; dropped, it frees the name unless a newcomer took it since.
pub struct Held<'a> {
    names: &'a Names,
    name: String,
    id: u64,
}

impl Names {
    /// Takes `name` for the connection of `stream` (`token`: the name's token, which it
    /// proved), or `None` while a client still connected holds it, unless this one proved
    /// the token and that one holds the name without a token `is_current` still accepts
    /// (none, or one replaced since): that connection is then shut (its reads and writes
    /// end, it leaves the lobby, its tournament's wait and its game).
    pub fn take(
        &self,
        name: &str,
        stream: Option<TcpStream>,
        token: Option<&str>,
        is_current: &dyn Fn(&str) -> bool,
    ) -> Option<Held<'_>> {
        let mut held = self.held.lock().expect("names");
        if let Some(holder) = held.get(name) {
            if !holder.stream.as_ref().is_some_and(is_closed) {
                let kept = holder.token.as_deref().is_some_and(is_current);
                if kept || token.is_none() {
                    return None;
                }
                if let Some(stream) = &holder.stream {
                    let _ = stream.shutdown(std::net::Shutdown::Both);
                }
            }
        }
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        let token = token.map(str::to_string);
        held.insert(name.to_string(), Holder { id, stream, token });
        Some(Held {
            names: self,
            name: name.to_string(),
            id,
        })
    }
}

impl Held<'_> {
    /// Its connection proved the name's `token` again (a newer one, perhaps, given by the
    /// organiser since): it holds the name by that one now.
    pub fn proved(&self, token: Option<&str>) {
        let mut held = self.names.held.lock().expect("names");
        if let Some(holder) = held.get_mut(&self.name).filter(|h| h.id == self.id) {
            holder.token = token.map(str::to_string);
        }
    }
}

impl Drop for Held<'_> {
    fn drop(&mut self) {
        let mut held = self.names.held.lock().expect("names");
        if held.get(&self.name).is_some_and(|h| h.id == self.id) {
            held.remove(&self.name);
        }
    }
}

/// Whether the client closed its connection (or it was reset): an end of file read
/// without waiting nor taking a byte, so the holder's own reads are left as they were
/// (the socket's blocking mode is shared by its handles: it is not changed).
fn is_closed(stream: &TcpStream) -> bool {
    let mut byte = [0u8; 1];
    match recv(
        stream.as_raw_fd(),
        &mut byte,
        MsgFlags::MSG_PEEK | MsgFlags::MSG_DONTWAIT,
    ) {
        Ok(0) => true,
        Ok(_) => false,
        Err(Errno::EAGAIN) | Err(Errno::EINTR) => false,
        Err(_) => true,
    }
}
