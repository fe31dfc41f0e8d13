//! An SMTP server on loopback that takes every message (signed in with any user and password)
//! and keeps what it was sent; it offers no STARTTLS, so a sender that requires TLS is refused.

use std::sync::{Arc, Mutex};

use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

/// A message the server took.
#[derive(Clone, Debug)]
pub struct Mail {
    pub from: String,
    pub to: Vec<String>,
    /// The message as sent: headers and body.
    pub data: String,
}

#[derive(Clone, Default)]
pub struct SmtpServer {
    mails: Arc<Mutex<Vec<Mail>>>,
}

impl SmtpServer {
    /// Listens on loopback: the server and its `host:port`.
    pub async fn start() -> (Self, String) {
        let server = SmtpServer::default();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        let serving = server.clone();
        tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                let serving = serving.clone();
                tokio::spawn(async move { serving.session(stream).await });
            }
        });
        (server, address.to_string())
    }

    pub fn mails(&self) -> Vec<Mail> {
        self.mails.lock().unwrap().clone()
    }

    async fn session(&self, stream: tokio::net::TcpStream) -> std::io::Result<()> {
        let (read, mut write) = stream.into_split();
        let mut lines = BufReader::new(read).lines();
        write.write_all(b"220 loopback ESMTP\r\n").await?;
        let (mut from, mut to) = (String::new(), Vec::new());
        while let Some(line) = lines.next_line().await? {
            let upper = line.to_ascii_uppercase();
            let answer: &[u8] = if upper.starts_with("EHLO") {
                b"250-loopback\r\n250-AUTH PLAIN LOGIN\r\n250 8BITMIME\r\n"
            } else if upper.starts_with("AUTH") {
                b"235 2.7.0 Authentication successful\r\n"
            } else if upper.starts_with("MAIL FROM:") {
                from = line[10..].trim().to_string();
                b"250 OK\r\n"
            } else if upper.starts_with("RCPT TO:") {
                to.push(line[8..].trim().to_string());
                b"250 OK\r\n"
            } else if upper.starts_with("DATA") {
                write
                    .write_all(b"354 End data with <CR><LF>.<CR><LF>\r\n")
                    .await?;
                let mut data = String::new();
                while let Some(line) = lines.next_line().await? {
                    if line == "." {
                        break;
                    }
                    data.push_str(&line);
                    data.push('\n');
                }
                self.mails.lock().unwrap().push(Mail {
                    from: from.clone(),
                    to: std::mem::take(&mut to),
                    data,
                });
                b"250 OK queued\r\n"
            } else if upper.starts_with("QUIT") {
                write.write_all(b"221 Bye\r\n").await?;
                return Ok(());
            } else {
                b"250 OK\r\n"
            };
            write.write_all(answer).await?;
        }
        Ok(())
    }
}
