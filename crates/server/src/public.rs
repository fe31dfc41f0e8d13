//! The address clients reach the server at, for what the server writes down as a link (the
//! audit log's pages, `config.json`'s API address): `--public-url` when given; otherwise the
//! `Host` a request names, only when it is the listening address, a loopback name on its port,
//! or a name allowed with `--allowed-host`; the listening address else. A `Host` or an
//! `X-Forwarded-Proto` of a client's choosing never makes a link another client follows.

use std::net::SocketAddr;

use axum::http::header::HOST;
use axum::http::HeaderMap;

#[derive(Clone, Debug)]
pub struct PublicAddress {
    /// `--public-url`, without its trailing slash.
    public_url: Option<String>,
    listen: SocketAddr,
    /// Names (`console.example.com`) or names with a port the server may be reached at.
    allowed_hosts: Vec<String>,
}

impl PublicAddress {
    pub fn new(
        public_url: Option<&reqwest::Url>,
        listen: SocketAddr,
        allowed_hosts: Vec<String>,
    ) -> Self {
        Self {
            public_url: public_url.map(|url| url.as_str().trim_end_matches('/').to_string()),
            listen,
            allowed_hosts: allowed_hosts
                .into_iter()
                .map(|host| host.to_ascii_lowercase())
                .collect(),
        }
    }

    /// `scheme://host[:port]` (and `--public-url`'s path), without a trailing slash, for a
    /// request with `headers`.
    pub fn origin(&self, headers: &HeaderMap) -> String {
        if let Some(url) = &self.public_url {
            return url.clone();
        }
        let named = headers
            .get(HOST)
            .and_then(|value| value.to_str().ok())
            .map(str::to_ascii_lowercase)
            .and_then(|host| self.reached_as(&host).map(|reach| (host, reach)));
        match named {
            Some((host, Reach::Listening)) => format!("http://{host}"),
            Some((host, Reach::Allowed)) => {
                // Behind a proxy that ends TLS, as it says; nothing else than these two. Only a
                // name given with --allowed-host is one a proxy stands in front of.
                let https = headers
                    .get("x-forwarded-proto")
                    .is_some_and(|proto| proto.as_bytes().eq_ignore_ascii_case(b"https"));
                format!("{}://{host}", if https { "https" } else { "http" })
            }
            None if self.listen.ip().is_unspecified() => {
                format!("http://localhost:{}", self.listen.port())
            }
            None => format!("http://{}", self.listen),
        }
    }

    /// How `host` reaches the server, if it does.
    fn reached_as(&self, host: &str) -> Option<Reach> {
        let (name, port) = match host.rsplit_once(':') {
            Some((name, port)) if !name.ends_with(':') && port.parse::<u16>().is_ok() => {
                (name, port.parse::<u16>().ok())
            }
            _ => (host, None),
        };
        let name = name.trim_start_matches('[').trim_end_matches(']');
        let loopback = matches!(name, "localhost" | "127.0.0.1" | "::1");
        if self
            .allowed_hosts
            .iter()
            .any(|allowed| allowed == host || allowed == name)
        {
            Some(Reach::Allowed)
        } else if host == self.listen.to_string() || (loopback && port == Some(self.listen.port()))
        {
            Some(Reach::Listening)
        } else {
            None
        }
    }
}

/// How a request's `Host` reaches the server.
enum Reach {
    /// The listening address, or a loopback name on its port: reached directly, over http.
    Listening,
    /// A name given with `--allowed-host`: perhaps through a proxy that ends TLS.
    Allowed,
}

#[cfg(test)]
mod tests {
    use axum::http::HeaderValue;

    use super::*;

    fn asked(host: &str, proto: Option<&str>) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(HOST, HeaderValue::from_str(host).unwrap());
        if let Some(proto) = proto {
            headers.insert("x-forwarded-proto", HeaderValue::from_str(proto).unwrap());
        }
        headers
    }

    #[test]
    fn a_link_names_only_an_address_the_server_is_reached_at() {
        let listen: SocketAddr = "0.0.0.0:8080".parse().unwrap();
        let public = PublicAddress::new(None, listen, vec!["Console.Example.com".into()]);
        assert_eq!(
            public.origin(&asked("localhost:8080", None)),
            "http://localhost:8080"
        );
        assert_eq!(
            public.origin(&asked("console.example.com", Some("https"))),
            "https://console.example.com"
        );
        // A name of the client's choosing, or a scheme, is not taken.
        assert_eq!(
            public.origin(&asked("evil.example", Some("https"))),
            "http://localhost:8080"
        );
        assert_eq!(
            public.origin(&asked("localhost:8080", Some("javascript"))),
            "http://localhost:8080"
        );
        // Reached directly, a client's X-Forwarded-Proto does not make the link https.
        assert_eq!(
            public.origin(&asked("localhost:8080", Some("https"))),
            "http://localhost:8080"
        );
        assert_eq!(
            public.origin(&asked("localhost:9999", None)),
            "http://localhost:8080"
        );
        assert_eq!(public.origin(&HeaderMap::new()), "http://localhost:8080");

        let bound: SocketAddr = "127.0.0.1:4000".parse().unwrap();
        let local = PublicAddress::new(None, bound, vec![]);
        assert_eq!(
            public.origin(&asked("[::1]:8080", None)),
            "http://[::1]:8080"
        );
        assert_eq!(
            local.origin(&asked("127.0.0.1:4000", None)),
            "http://127.0.0.1:4000"
        );

        let url: reqwest::Url = "https://platform.example.com/console/".parse().unwrap();
        let fixed = PublicAddress::new(Some(&url), listen, vec![]);
        assert_eq!(
            fixed.origin(&asked("localhost:8080", None)),
            "https://platform.example.com/console"
        );
    }
}
