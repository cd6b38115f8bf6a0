//! Built-in opponents written against the public [`Api`](crate::Api) only.
