//! Games behind the runner's seam ([`crate::rules::Rules`]) other than the 2009 one (which is
//! still `crate::game`): one module each.

pub mod amazons;
