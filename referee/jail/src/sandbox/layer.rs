//! One layer of the sandbox, on (with a detail) or off (with the reason).

/// The state of one layer: on (with a detail) or off (with the reason).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Layer {
    On(String),
    Off(String),
}

impl Layer {
    /// Whether the layer is on.
    pub fn is_on(&self) -> bool {
        matches!(self, Layer::On(_))
    }

    pub(crate) fn show(&self, name: &str) -> String {
        match self {
            Layer::On(d) if d.is_empty() => format!("{name}=on"),
            Layer::On(d) => format!("{name}={d}"),
            Layer::Off(why) => format!("{name}=off({why})"),
        }
    }
}
