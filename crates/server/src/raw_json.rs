//! Answers whose JSON is already written: a list spliced from records as stored (each record was
//! written as JSON from its record type, in the answer's shape; a change of shape comes with a
//! migration), and an answer kept in memory (`fresh`), sent without being decoded and encoded
//! again, compressed once for all the clients that ask for it while it is kept, and not sent at
//! all to a client that holds it already (its entity tag).

use std::convert::Infallible;
use std::future::Future;
use std::hash::Hash;
use std::io::Write;
use std::sync::{Arc, OnceLock};

use axum::body::Bytes;
use axum::extract::FromRequestParts;
use axum::http::header::{
    ACCEPT_ENCODING, CACHE_CONTROL, CONTENT_ENCODING, CONTENT_TYPE, ETAG, IF_NONE_MATCH, VARY,
};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use sha2::{Digest, Sha256};

use crate::error::ApiResult;
use crate::fresh::{Fresh, Read};

/// Brotli's quality for a kept answer: tower-http's per-request level, made once per answer.
const BROTLI_QUALITY: u32 = 4;

/// An answer kept in memory: its JSON, its entity tag, and its compressed forms, each made the
/// first time a client accepts it. Every console polls its environment's statuses: at a
/// thousand services each brotli of them took ~7 ms of the server per poll, and each poll sent
/// 64 KB that most often said what the last one did.
#[derive(Clone)]
pub struct KeptAnswer(Arc<Forms>);

struct Forms {
    json: Bytes,
    /// Weak (`W/`): the same JSON, whatever its encoding. From the content, so that an answer
    /// read again unchanged has the tag the client holds.
    etag: HeaderValue,
    brotli: OnceLock<Bytes>,
    gzip: OnceLock<Bytes>,
}

impl crate::fresh::Weigh for KeptAnswer {
    /// The JSON and, once asked for, its compressed forms (each smaller than the JSON).
    fn weight(&self) -> usize {
        let compressed = |form: &OnceLock<Bytes>| form.get().map_or(0, Bytes::len);
        self.0.json.len() + compressed(&self.0.brotli) + compressed(&self.0.gzip)
    }
}

impl KeptAnswer {
    fn new(json: Bytes) -> Self {
        let digest = Sha256::digest(&json);
        let etag = format!("W/\"{}\"", hex::encode(&digest[..16]));
        Self(Arc::new(Forms {
            json,
            etag: HeaderValue::from_str(&etag).expect("hex is a header value"),
            brotli: OnceLock::new(),
            gzip: OnceLock::new(),
        }))
    }

    /// The answer as `asked`: nothing new (304) to a client that holds it, else in the form its
    /// encoding names. Browsers send the tag back by themselves (`no-cache`: ask each time).
    fn response(&self, asked: &Asked) -> Response {
        let Forms {
            json,
            etag,
            brotli,
            gzip,
        } = &*self.0;
        let headers = [
            (ETAG, etag.clone()),
            (CACHE_CONTROL, HeaderValue::from_static("private, no-cache")),
            (VARY, HeaderValue::from_static("accept-encoding")),
        ];
        if asked.holds(etag) {
            return (StatusCode::NOT_MODIFIED, headers).into_response();
        }
        let (body, encoding) = match asked.encoding {
            Encoding::Identity => (json, None),
            Encoding::Brotli => (brotli.get_or_init(|| compress_brotli(json)), Some("br")),
            Encoding::Gzip => (gzip.get_or_init(|| compress_gzip(json)), Some("gzip")),
        };
        let mut response = (
            headers,
            [(CONTENT_TYPE, HeaderValue::from_static("application/json"))],
            body.clone(),
        )
            .into_response();
        if let Some(encoding) = encoding {
            let encoding = HeaderValue::from_static(encoding);
            response.headers_mut().insert(CONTENT_ENCODING, encoding);
        }
        response
    }
}

fn compress_brotli(json: &[u8]) -> Bytes {
    let mut out = Vec::with_capacity(json.len() / 8);
    let params = brotli::enc::BrotliEncoderParams {
        quality: BROTLI_QUALITY as i32,
        ..Default::default()
    };
    brotli::BrotliCompress(&mut &json[..], &mut out, &params).expect("writes to memory");
    out.into()
}

fn compress_gzip(json: &[u8]) -> Bytes {
    let mut encoder = flate2::write::GzEncoder::new(
        Vec::with_capacity(json.len() / 6),
        flate2::Compression::default(),
    );
    encoder.write_all(json).expect("writes to memory");
    encoder.finish().expect("writes to memory").into()
}

/// How the client would have an answer compressed, from its `Accept-Encoding`: brotli, else
/// gzip, else not at all.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Encoding {
    Brotli,
    Gzip,
    Identity,
}

impl Encoding {
    fn accepted(headers: &HeaderMap) -> Self {
        let accepts = |name: &str| {
            headers
                .get_all(ACCEPT_ENCODING)
                .iter()
                .filter_map(|value| value.to_str().ok())
                .flat_map(|value| value.split(','))
                .any(|coding| {
                    let mut parts = coding.split(';').map(str::trim);
                    parts.next().is_some_and(|coding| coding == name)
                        && parts.all(|parameter| {
                            parameter
                                .strip_prefix("q=")
                                .and_then(|q| q.parse::<f32>().ok())
                                .is_none_or(|q| q > 0.0)
                        })
                })
        };
        if accepts("br") {
            Encoding::Brotli
        } else if accepts("gzip") {
            Encoding::Gzip
        } else {
            Encoding::Identity
        }
    }
}

/// What a client asks of an answer: its encoding, and the entity tags of the answers it holds
/// (`If-None-Match`).
pub struct Asked {
    encoding: Encoding,
    holding: Vec<String>,
}

impl Asked {
    fn from_headers(headers: &HeaderMap) -> Self {
        let holding = headers
            .get_all(IF_NONE_MATCH)
            .iter()
            .filter_map(|value| value.to_str().ok())
            .flat_map(|value| value.split(','))
            .map(|tag| tag.trim().trim_start_matches("W/").to_string())
            .collect();
        Self {
            encoding: Encoding::accepted(headers),
            holding,
        }
    }

    /// Whether the client holds the answer tagged `etag` (compared weakly, as `If-None-Match` is).
    fn holds(&self, etag: &HeaderValue) -> bool {
        let ours = etag.to_str().unwrap_or_default().trim_start_matches("W/");
        self.holding.iter().any(|tag| tag == ours || tag == "*")
    }
}

impl<S: Send + Sync> FromRequestParts<S> for Asked {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Infallible> {
        Ok(Asked::from_headers(&parts.headers))
    }
}

/// The answer `fresh` keeps for `key`, or the one `read` reads (kept if it says so), as JSON
/// sent as `asked` says.
pub async fn kept<K: Eq + Hash>(
    fresh: &Fresh<K, KeptAnswer>,
    key: K,
    asked: Asked,
    read: impl Future<Output = ApiResult<Read<Bytes>>>,
) -> ApiResult<Response> {
    let answer = fresh
        .get_or_read(key, async {
            let Read { value, keep } = read.await?;
            Ok::<_, crate::error::ApiError>(Read {
                value: KeptAnswer::new(value),
                keep,
            })
        })
        .await?;
    Ok(answer.response(&asked))
}

pub struct StoredList(pub Vec<String>);

impl StoredList {
    /// `{"results": [...]}` with the records as they are.
    pub fn into_bytes(self) -> Bytes {
        let length = self.0.iter().map(|record| record.len() + 1).sum::<usize>();
        let mut body = String::with_capacity(length + 16);
        body.push_str("{\"results\":[");
        for (index, record) in self.0.iter().enumerate() {
            if index > 0 {
                body.push(',');
            }
            body.push_str(record);
        }
        body.push_str("]}");
        Bytes::from(body)
    }
}

#[cfg(test)]
mod tests {
    use std::io::Read as _;

    use axum::http::HeaderValue;
    use http_body_util::BodyExt;

    use super::*;

    #[test]
    fn records_are_spliced_into_a_results_list() {
        for (records, expected) in [
            (vec![], r#"{"results":[]}"#),
            (vec![r#"{"a":1}"#], r#"{"results":[{"a":1}]}"#),
            (
                vec![r#"{"a":1}"#, r#"{"b":[2]}"#],
                r#"{"results":[{"a":1},{"b":[2]}]}"#,
            ),
        ] {
            let body = StoredList(records.into_iter().map(String::from).collect()).into_bytes();
            assert_eq!(body, expected.as_bytes());
            serde_json::from_slice::<serde_json::Value>(&body).unwrap();
        }
    }

    #[test]
    fn the_encoding_is_the_best_the_client_accepts() {
        let accepted = |value: &str| {
            let mut headers = HeaderMap::new();
            headers.insert(ACCEPT_ENCODING, HeaderValue::from_str(value).unwrap());
            Encoding::accepted(&headers)
        };
        assert_eq!(accepted("gzip, deflate, br, zstd"), Encoding::Brotli);
        assert_eq!(accepted("gzip"), Encoding::Gzip);
        assert_eq!(accepted("br;q=0, gzip;q=0.5"), Encoding::Gzip);
        assert_eq!(accepted("br;q=0"), Encoding::Identity);
        assert_eq!(accepted("identity"), Encoding::Identity);
        assert_eq!(accepted("brotli, gzipped"), Encoding::Identity);
        assert_eq!(Encoding::accepted(&HeaderMap::new()), Encoding::Identity);
    }

    fn asked(headers: &[(&'static str, &str)]) -> Asked {
        let mut map = HeaderMap::new();
        for (name, value) in headers {
            map.append(*name, HeaderValue::from_str(value).unwrap());
        }
        Asked::from_headers(&map)
    }

    async fn sent(answer: &KeptAnswer, asked: Asked) -> (StatusCode, HeaderMap, Vec<u8>) {
        let response = answer.response(&asked);
        let (status, headers) = (response.status(), response.headers().clone());
        let body = response.into_body().collect().await.unwrap().to_bytes();
        (status, headers, body.to_vec())
    }

    #[tokio::test]
    async fn a_kept_answer_is_sent_in_the_form_asked_for() {
        let json = Bytes::from(format!(
            "[{}]",
            vec!["{\"state\":\"DEPLOYED\"}"; 500].join(",")
        ));
        let answer = KeptAnswer::new(json.clone());

        let (_, headers, body) = sent(&answer, asked(&[])).await;
        assert_eq!(body, json);
        assert!(headers.get(CONTENT_ENCODING).is_none());

        assert!(answer.0.brotli.get().is_none());
        let (_, headers, body) = sent(&answer, asked(&[("accept-encoding", "gzip, br")])).await;
        assert_eq!(headers[CONTENT_ENCODING], "br");
        assert_eq!(headers[VARY], "accept-encoding");
        assert!(body.len() < json.len() / 10, "{} bytes", body.len());
        let mut plain = Vec::new();
        brotli::Decompressor::new(&body[..], 4096)
            .read_to_end(&mut plain)
            .unwrap();
        assert_eq!(plain, json);
        // Made once, and kept for the next clients.
        assert_eq!(answer.0.brotli.get().unwrap(), &body[..]);

        let (_, headers, body) = sent(&answer, asked(&[("accept-encoding", "gzip")])).await;
        assert_eq!(headers[CONTENT_ENCODING], "gzip");
        let mut plain = Vec::new();
        flate2::read::GzDecoder::new(&body[..])
            .read_to_end(&mut plain)
            .unwrap();
        assert_eq!(plain, json);
    }

    #[tokio::test]
    async fn a_client_holding_the_answer_is_told_nothing_changed() {
        let answer = KeptAnswer::new(Bytes::from_static(b"{\"state\":\"DEPLOYED\"}"));
        let (status, headers, _) = sent(&answer, asked(&[])).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(headers[CACHE_CONTROL], "private, no-cache");
        let etag = headers[ETAG].to_str().unwrap().to_string();
        assert!(etag.starts_with("W/\""), "{etag}");

        // Whatever the encoding, and as a browser sends it back (weak or not, among others).
        for held in [
            etag.clone(),
            etag.trim_start_matches("W/").into(),
            format!("\"x\", {etag}"),
        ] {
            let (status, headers, body) = sent(
                &answer,
                asked(&[("if-none-match", &held), ("accept-encoding", "br")]),
            )
            .await;
            assert_eq!(status, StatusCode::NOT_MODIFIED, "{held}");
            assert_eq!(headers[ETAG], etag.as_str());
            assert!(body.is_empty());
        }

        // The same JSON read again has the same tag; other JSON, another.
        let again = KeptAnswer::new(Bytes::from_static(b"{\"state\":\"DEPLOYED\"}"));
        assert_eq!(sent(&again, asked(&[])).await.1[ETAG], etag.as_str());
        let changed = KeptAnswer::new(Bytes::from_static(b"{\"state\":\"STOPPED\"}"));
        let (status, headers, _) = sent(&changed, asked(&[("if-none-match", &etag)])).await;
        assert_eq!(status, StatusCode::OK);
        assert_ne!(headers[ETAG], etag.as_str());
    }
}
