//! Empty: it exists so that xtask's `[build-dependencies]` (feature alignment with the
//! workspace's test build, see Cargo.toml) are resolved for the host.

fn main() {}
