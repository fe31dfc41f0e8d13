//! A platform newer than the console may send a value of an enumeration that its document does
//! not list yet: the console reads it as it is (`platform_api::accept_unknown_values`, what the
//! console turns on at start) rather than failing the page. Its own binary: the switch holds for
//! the whole process, and the other tests read strictly.

mod reads;

use contract::{Document, Fields, UNLISTED_VALUE};
use reads::CONSOLE_READS;

#[test]
fn the_console_reads_values_the_document_does_not_list_yet() {
    let document = Document::production();
    // Read strictly, such a value fails: the test below is not vacuous.
    let (_, status) = document
        .operation("get", "/application/{applicationId}/status")
        .unwrap()
        .sample_response_unlisted(Fields::All)
        .unwrap();
    assert!(serde_json::from_value::<platform_api::Status>(status.clone()).is_err());

    platform_api::accept_unknown_values();
    let decoded: platform_api::Status = serde_json::from_value(status).unwrap();
    assert_eq!(decoded.state.as_str(), UNLISTED_VALUE);
    // Shown in its enum's words: states read in sentence case, known or not.
    assert_eq!(
        platform_api::WireEnum::label(decoded.state),
        "A value of a newer platform"
    );
    assert_eq!(
        serde_json::to_value(decoded.state).unwrap(),
        serde_json::json!(UNLISTED_VALUE)
    );
    let mut failures = Vec::new();
    for (path, decode) in CONSOLE_READS {
        let operation = document.operation("get", path).unwrap();
        for fields in [Fields::RequiredWithResults, Fields::All] {
            let (_, sample) = operation.sample_response_unlisted(fields).unwrap();
            if let Err(error) = decode(sample) {
                failures.push(format!("GET {path} ({fields:?}): {error}"));
            }
        }
    }
    println!(
        "unknown values: {} reads, each decoded with a value no list has",
        CONSOLE_READS.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
