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
/// Seconds a helm service's deployment may take.
pub fn helm_timeout() -> i64 {
    600
}
/// milli-CPU
pub fn database_cpu() -> i64 {
    250
}
/// MiB
pub fn database_memory() -> i64 {
    256
}
/// GiB
pub fn database_storage() -> i64 {
    10
}
