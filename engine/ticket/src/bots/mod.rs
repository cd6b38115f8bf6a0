//! The built-in players, pure.
