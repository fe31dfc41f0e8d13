//! Sends a message to an alert receiver: a Slack receiver's webhook gets `{"text": …}` over HTTP,
//! an e-mail receiver's address a mail through its SMTP server (lettre, STARTTLS required when
//! the receiver says so, signed in with its user and sealed password). Both go only where the
//! target policy lets the server reach, checked at each sending: an SMTP server's name is
//! resolved here and the connection made to an allowed address.

use std::sync::Arc;
use std::time::Duration;

use lettre::message::Mailbox;
use lettre::transport::smtp::authentication::Credentials;
use lettre::transport::smtp::client::{Tls, TlsParameters};
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use platform_api::{AlertReceiver, AlertReceiverType, EmailRelay};

use crate::seal::Sealer;
use crate::seal::Secrets;
use crate::targets::{Resolver, TargetPolicy, NOT_PUBLIC};

/// The secrets a receiver keeps sealed: a Slack receiver's webhook URL, an e-mail receiver's
/// SMTP password.
pub const WEBHOOK_URL: &str = "webhook_url";
pub const AUTH_PASSWORD: &str = "auth_password";

/// How long a whole sending may take.
const TIMEOUT: Duration = Duration::from_secs(10);

/// What sends to receivers: an HTTP client whose names resolve only to addresses the policy
/// allows, and the policy for SMTP servers.
#[derive(Clone)]
pub struct Notifier {
    client: reqwest::Client,
    targets: Arc<TargetPolicy>,
}

impl Notifier {
    pub fn new(targets: Arc<TargetPolicy>) -> anyhow::Result<Self> {
        let client = reqwest::Client::builder()
            .timeout(TIMEOUT)
            .dns_resolver(Arc::new(Resolver {
                policy: targets.clone(),
            }))
            .redirect(reqwest::redirect::Policy::none())
            .user_agent(concat!("platform-server/", env!("CARGO_PKG_VERSION")))
            .build()?;
        Ok(Notifier { client, targets })
    }

    pub fn client(&self) -> &reqwest::Client {
        &self.client
    }

    pub fn targets(&self) -> &TargetPolicy {
        &self.targets
    }

    /// Sends `notice` to `receiver`; why it did not go, in words that name no secret. The whole
    /// of it (look-up, connection, greeting, every command) within `TIMEOUT`: a server answering
    /// a line at a time never holds a slot longer.
    pub async fn send(&self, receiver: &Receiver, notice: &Notice) -> Result<(), String> {
        let sending = async {
            match (receiver.kind, &receiver.webhook_url, &receiver.email) {
                (AlertReceiverType::Email, _, Some((relay, password))) => {
                    mail(&self.targets, relay, password, notice).await
                }
                (AlertReceiverType::Slack, Some(url), _) => {
                    slack(&self.client, &self.targets, url, notice).await
                }
                _ => Err("The receiver has no address to send to.".to_string()),
            }
        };
        tokio::time::timeout(TIMEOUT, sending)
            .await
            .unwrap_or_else(|_| {
                Err(format!(
                    "The receiver did not take the message within {} s.",
                    TIMEOUT.as_secs()
                ))
            })
    }
}

/// What to tell a receiver.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Notice {
    pub subject: String,
    pub text: String,
}

/// A receiver with its secrets opened.
pub struct Receiver {
    pub kind: AlertReceiverType,
    pub webhook_url: Option<String>,
    pub email: Option<(EmailRelay, String)>,
}

impl Receiver {
    /// The stored receiver, its secrets opened.
    pub fn opened(
        record: &AlertReceiver,
        secrets: &Secrets,
        sealer: &Sealer,
    ) -> anyhow::Result<Self> {
        let open = |name: &str| {
            secrets
                .get(name)
                .map(|sealed| sealer.open(sealed))
                .transpose()
        };
        Ok(Receiver {
            kind: record.receiver_type,
            webhook_url: open(WEBHOOK_URL)?,
            email: open(AUTH_PASSWORD)?.map(|password| (record.email.clone(), password)),
        })
    }
}

async fn slack(
    client: &reqwest::Client,
    targets: &TargetPolicy,
    url: &str,
    message: &Notice,
) -> Result<(), String> {
    let parsed =
        reqwest::Url::parse(url).map_err(|_| "The webhook URL does not read.".to_string())?;
    if targets.refuses_literal(&parsed) {
        return Err(format!("Not sent: the webhook URL {NOT_PUBLIC}."));
    }
    let body = serde_json::json!({ "text": format!("*{}*\n{}", message.subject, message.text) });
    let answer = client
        .post(parsed)
        .header(reqwest::header::CONTENT_TYPE, "application/json")
        .body(body.to_string())
        .send()
        .await
        .map_err(|error| {
            if error.is_connect() || error.is_timeout() {
                "Could not connect to Slack's webhook, or it did not answer in time.".to_string()
            } else {
                "The exchange with Slack's webhook failed before it answered.".to_string()
            }
        })?;
    if answer.status().is_success() {
        Ok(())
    } else {
        Err(format!("Slack's webhook answered {}.", answer.status()))
    }
}

async fn mail(
    targets: &TargetPolicy,
    relay: &EmailRelay,
    password: &str,
    message: &Notice,
) -> Result<(), String> {
    let missing = || "The receiver has no address to send to.".to_string();
    let (to, from) = (
        relay.to.as_deref().ok_or_else(missing)?,
        relay.from.as_deref().ok_or_else(missing)?,
    );
    let require_tls = relay.require_tls.unwrap_or(true);
    let (host, port) = relay
        .smarthost
        .as_deref()
        .and_then(|smarthost| smarthost.rsplit_once(':'))
        .and_then(|(host, port)| Some((host.trim_matches(['[', ']']), port.parse::<u16>().ok()?)))
        .ok_or_else(|| "The SMTP server is not a host:port.".to_string())?;
    let address = tokio::net::lookup_host((host, port))
        .await
        .map_err(|_| format!("The SMTP server's name {host} does not resolve."))?
        .find(|address| targets.allows(address.ip()))
        .ok_or_else(|| format!("Not sent: the SMTP server {NOT_PUBLIC}."))?;
    let mailbox = |text: &str, field: &str| -> Result<Mailbox, String> {
        text.parse()
            .map_err(|_| format!("The {field} address does not read as an e-mail address."))
    };
    let email = Message::builder()
        .from(mailbox(from, "sender's")?)
        .to(mailbox(to, "recipient's")?)
        .subject(&message.subject)
        .body(message.text.clone())
        .map_err(|error| format!("The message could not be written: {error}."))?;
    let tls = TlsParameters::new(host.to_string())
        .map_err(|error| format!("TLS could not be set up for {host}: {error}."))?;
    let user = relay
        .auth_username
        .clone()
        .unwrap_or_else(|| from.to_string());
    let transport =
        AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(address.ip().to_string())
            .port(port)
            .tls(if require_tls {
                Tls::Required(tls)
            } else {
                Tls::Opportunistic(tls)
            })
            .credentials(Credentials::new(user, password.to_string()))
            .timeout(Some(TIMEOUT))
            .build();
    transport.send(email).await.map(drop).map_err(|error| {
        if error.is_permanent() {
            "The SMTP server refused the message.".to_string()
        } else if error.is_transient() {
            "The SMTP server could not take the message now.".to_string()
        } else if require_tls && error.to_string().to_lowercase().contains("tls") {
            "The SMTP server does not offer STARTTLS, which this receiver requires.".to_string()
        } else {
            "Could not exchange with the SMTP server.".to_string()
        }
    })
}
