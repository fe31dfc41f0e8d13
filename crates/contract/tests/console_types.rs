//! The console reads what the platform answers: for the reads the console makes, answers built
//! from the production document's schemas (only the required fields, and every field) are decoded
//! with the types the console decodes them with.

mod reads;

use contract::{Document, Fields};
use reads::CONSOLE_READS;

/// Values of the document's enumerations the console reads as they are (`Other`) rather than
/// knowing them: kinds of service it does not manage. `unknown_values` shows them read.
const SHOWN_AS_THEY_ARE: &[&str] = &["ARGOCD_APP", "AGENTIC_WORKFLOW"];

/// `sample` with the values of `SHOWN_AS_THEY_ARE` replaced by a value the console knows.
fn known_only(sample: serde_json::Value) -> serde_json::Value {
    let text = SHOWN_AS_THEY_ARE
        .iter()
        .fold(sample.to_string(), |text, value| {
            text.replace(&format!("\"{value}\""), "\"APPLICATION\"")
        });
    serde_json::from_str(&text).expect("still JSON")
}

#[test]
fn the_console_reads_every_answer_the_document_allows() {
    let document = Document::production();
    let mut failures = Vec::new();
    let mut failing_reads = std::collections::BTreeSet::new();
    for (path, decode) in CONSOLE_READS {
        let operation = document
            .operation("get", path)
            .unwrap_or_else(|| panic!("the document has no GET {path}"));
        for fields in [Fields::Required, Fields::RequiredWithResults, Fields::All] {
            let (_, sample) = operation
                .sample_response(fields)
                .unwrap_or_else(|| panic!("GET {path} answers no body"));
            if let Err(error) = decode(sample.clone()) {
                failing_reads.insert(*path);
                failures.push(format!("GET {path} ({fields:?}): {error}\n  {sample}"));
            }
        }
        // Every value of every enumeration the answer holds.
        for choice in 1..operation.longest_enumeration() {
            let (_, sample) = operation
                .sample_response_choosing(Fields::All, choice)
                .expect("a body");
            if let Err(error) = decode(known_only(sample)) {
                failing_reads.insert(*path);
                let failure =
                    format!("GET {path} (every field, value {choice} of each list): {error}");
                if !failures.contains(&failure) {
                    failures.push(failure);
                }
            }
        }
    }
    println!(
        "console types: {} reads, {} decoded in every form",
        CONSOLE_READS.len(),
        CONSOLE_READS.len() - failing_reads.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
