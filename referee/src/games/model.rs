//! Every game on the model as a game of the runner: the arena's (`arena::model`), under its
//! old path.

pub use arena::model::*;
