//! One server per data folder, and nothing touched by a start that cannot serve: the real binary
//! started twice on one folder, and on a port already taken. The database is its user's only.

use std::os::unix::fs::PermissionsExt;
use std::process::{Command, Stdio};
use std::time::Duration;

use tempfile::TempDir;

use crate::common::TestServer;

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn server(data: &TempDir, port: u16) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_platform-server"));
    command
        .args(["--listen", &format!("127.0.0.1:{port}")])
        .args(["--data-dir", data.path().to_str().unwrap()])
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    command
}

/// Waits until something answers on the port.
fn wait_until_listening(port: u16) {
    for _ in 0..300 {
        if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
            return;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    panic!("nothing listens on {port}");
}

#[test]
fn a_second_server_on_the_same_data_folder_stops_and_names_the_first() {
    let data = TempDir::new().unwrap();
    let port = free_port();
    let mut first = server(&data, port).spawn().unwrap();
    wait_until_listening(port);
    let second = server(&data, free_port()).output().unwrap();
    first.kill().unwrap();
    first.wait().unwrap();
    assert!(!second.status.success());
    let said = String::from_utf8_lossy(&second.stderr);
    assert!(
        said.contains(&format!("process {}", first.id())) && said.contains("data folder"),
        "{said}"
    );
    // The lock goes with the process, even killed: the folder is free again.
    let port = free_port();
    let mut again = server(&data, port).spawn().unwrap();
    wait_until_listening(port);
    again.kill().unwrap();
    again.wait().unwrap();
}

#[test]
fn a_start_that_cannot_listen_touches_nothing() {
    let data = TempDir::new().unwrap();
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port();
    let refused = server(&data, port).output().unwrap();
    assert!(!refused.status.success());
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(said.contains("cannot listen"), "{said}");
    // No database opened, so nothing resumed: only the lock file was made.
    assert!(!data.path().join("platform.sqlite").exists());
}

#[tokio::test]
async fn the_database_is_readable_by_its_user_only() {
    let server = TestServer::new().await;
    server.hierarchy().await;
    for name in ["platform.sqlite", "platform.sqlite-wal"] {
        let path = server.dir.path().join(name);
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "{name}");
    }
}
