//! Ticket to Ride's replay page.

use crate::arena::GameRecord;
use std::path::Path;

/// The replay page of `record`, the consoles' stderr read from `dir`.
pub fn page_in(record: &GameRecord, _dir: Option<&Path>) -> anyhow::Result<String> {
    crate::arena::check(&crate::games::ticket_wire::TicketWire, record)
        .map_err(|e| anyhow::anyhow!("this record was not written by a match: {e}"))?;
    anyhow::bail!("Ticket to Ride has no replay page yet")
}
