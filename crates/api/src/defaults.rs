//! Defaults of a service created without them, as the production platform uses.

pub const BUILD_MODE: &str = "DOCKER";

pub fn build_mode() -> String {
    BUILD_MODE.to_string()
}
pub fn cpu() -> i64 {
    500
}
pub fn memory() -> i64 {
    512
}
pub fn instances() -> i64 {
    1
}
pub fn protocol() -> String {
    "HTTP".to_string()
}
