//! A stand-in for the production platform built from its API document: every operation the
//! document has answers its first success code with a sample of its schema, anything else 404.
//! The samples' ids are wired so that the hierarchy links (the organization's project is the one
//! the project's page reads, the environment lists one service of each kind and their statuses
//! name them), and the services' statuses follow a `Condition` the test sets. Every request is
//! kept, so that a test can tell which ones the document does not have.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use serde_json::{json, Value};
use uuid::Uuid;

use crate::document::Document;
use crate::sample::{self, Fields};

/// The ids of the stand-in's records.
pub mod ids {
    use uuid::{uuid, Uuid};

    pub const ORGANIZATION: Uuid = uuid!("0b7a7c36-5a3c-4c43-9d51-3f3d3c7e9a10");
    pub const PROJECT: Uuid = uuid!("1c8b8d47-6b4d-4d54-8e62-403e4d8f0b21");
    pub const ENVIRONMENT: Uuid = uuid!("2d9c9e58-7c5e-4e65-9f73-514f5e901c32");
    pub const CLUSTER: Uuid = uuid!("3eadaf69-8d6f-4f76-a084-62506fa12d43");
    pub const APPLICATION: Uuid = uuid!("4fbeb07a-9e70-4087-b195-736170b23e54");
    pub const CONTAINER: Uuid = uuid!("50cfc18b-af81-4198-82a6-847281c34f65");
    pub const DATABASE: Uuid = uuid!("61d0d29c-b092-42a9-93b7-958392d45076");
    pub const JOB: Uuid = uuid!("72e1e3ad-c1a3-43ba-a4c8-a694a3e56187");
    pub const HELM: Uuid = uuid!("83f2f4be-d2b4-44cb-b5d9-b7a5b4f67298");
    pub const TERRAFORM: Uuid = uuid!("9403a5cf-e3c5-45dc-86ea-c8b6c5078309");
    /// The deployment request a queued service waits with.
    pub const DEPLOYMENT_REQUEST: Uuid = uuid!("a514b6d0-f4d6-46ed-97fb-d9c7d618941a");

    /// Each kind of service: its path segment, its `service_type`, its id.
    pub const SERVICES: [(&str, &str, Uuid); 6] = [
        ("application", "APPLICATION", APPLICATION),
        ("container", "CONTAINER", CONTAINER),
        ("database", "DATABASE", DATABASE),
        ("job", "JOB", JOB),
        ("helm", "HELM", HELM),
        ("terraform", "TERRAFORM", TERRAFORM),
    ];
}

/// What the services' statuses say.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Condition {
    /// Deployed and running, up to date.
    Deployed,
    /// A deployment runs.
    Deploying,
    /// A deployment waits in the queue (`ids::DEPLOYMENT_REQUEST`).
    Queued,
}

/// A request the stand-in answered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seen {
    pub method: String,
    /// The path with its query, as asked.
    pub path: String,
    /// The document's template, when the document has the operation.
    pub operation: Option<String>,
}

/// An answer: a status and, when the document gives the code one, a body.
#[derive(Clone, Debug, PartialEq)]
pub struct Answer {
    pub status: u16,
    pub body: Option<Value>,
}

pub struct StandIn {
    document: Document,
    fields: Fields,
    /// Every enumeration answers a value the document does not list (a newer platform's).
    unlisted: bool,
    /// Which alternative of every `oneOf` and `anyOf` the answers hold.
    alternative: AtomicUsize,
    condition: Mutex<Condition>,
    seen: Mutex<Vec<Seen>>,
}

/// The records a path segment names, with the stand-in's id of each.
const ENTITIES: [(&str, Uuid); 10] = [
    ("organization", ids::ORGANIZATION),
    ("project", ids::PROJECT),
    ("environment", ids::ENVIRONMENT),
    ("cluster", ids::CLUSTER),
    ("application", ids::APPLICATION),
    ("container", ids::CONTAINER),
    ("database", ids::DATABASE),
    ("job", ids::JOB),
    ("helm", ids::HELM),
    ("terraform", ids::TERRAFORM),
];

fn entity(segment: &str) -> Option<Uuid> {
    ENTITIES
        .iter()
        .find(|(name, _)| *name == segment)
        .map(|(_, id)| *id)
}

fn is_service(id: Uuid) -> bool {
    ids::SERVICES.iter().any(|(_, _, service)| *service == id)
}

impl StandIn {
    /// The stand-in of `document`, its samples holding `fields`, its services deployed.
    pub fn new(document: Document, fields: Fields) -> Self {
        Self {
            document,
            fields,
            unlisted: false,
            alternative: AtomicUsize::new(0),
            condition: Mutex::new(Condition::Deployed),
            seen: Mutex::new(Vec::new()),
        }
    }

    /// The stand-in of a platform newer than its document: every enumeration of every answer
    /// holds `UNLISTED_VALUE`, statuses included.
    pub fn with_unlisted_values(document: Document, fields: Fields) -> Self {
        Self {
            unlisted: true,
            ..Self::new(document, fields)
        }
    }

    pub fn set_condition(&self, condition: Condition) {
        *self.condition.lock().unwrap() = condition;
    }

    /// Every request answered so far, in order.
    pub fn seen(&self) -> Vec<Seen> {
        self.seen.lock().unwrap().clone()
    }

    /// Answers holding alternative number `alternative` of every `oneOf` and `anyOf` (wrapping
    /// around each list) from now on; 0 is the first.
    pub fn set_alternative(&self, alternative: usize) {
        self.alternative.store(alternative, Ordering::Relaxed);
    }

    pub fn alternative(&self) -> usize {
        self.alternative.load(Ordering::Relaxed)
    }

    /// The most alternatives an answer of the operation `method template` holds in one list (1
    /// when it holds none; 0 for an operation the document lacks).
    pub fn alternatives_of(&self, method: &str, template: &str) -> usize {
        self.document
            .operation(&method.to_ascii_lowercase(), template)
            .map_or(0, |operation| operation.most_alternatives().max(1))
    }

    /// Forgets the requests answered so far.
    pub fn clear_seen(&self) {
        self.seen.lock().unwrap().clear();
    }

    /// The answer to `method` at `path_and_query` (`/organization/ID/project?x=1`).
    pub fn answer(&self, method: &str, path_and_query: &str) -> Answer {
        let path = path_and_query.split('?').next().unwrap_or(path_and_query);
        let operation = self.document.operation(method, path);
        self.seen.lock().unwrap().push(Seen {
            method: method.to_ascii_uppercase(),
            path: path_and_query.to_string(),
            operation: operation.map(|operation| operation.path.to_string()),
        });
        let Some(operation) = operation else {
            return Answer {
                status: 404,
                body: Some(json!({"status": 404, "error": "NOT_FOUND",
                    "message": format!("The production document has no {} {path}.", method.to_ascii_uppercase())})),
            };
        };
        let codes = operation.success_codes();
        let status = codes
            .iter()
            .copied()
            .find(|code| operation.response_schema(*code).is_some())
            .or_else(|| codes.first().copied())
            .unwrap_or(200);
        let sample = if self.unlisted {
            operation.sample_response_unlisted(self.fields)
        } else {
            operation.sample_response_alternative(self.fields, self.alternative())
        };
        let Some((_, mut body)) = sample else {
            return Answer { status, body: None };
        };
        let segments: Vec<&str> = path.trim_matches('/').split('/').collect();
        distinct_ids(&mut body);
        if operation.path == "/environment/{environmentId}/services" {
            body = self.services();
        } else {
            self.wire(&mut body, &segments);
        }
        if !self.unlisted {
            let condition = *self.condition.lock().unwrap();
            patch_statuses(&mut body, condition);
        }
        if segments == ["environment", &ids::ENVIRONMENT.to_string()] {
            // The document types where an environment runs as free text; the platform names
            // a cloud and a region there, which the console reads (a managed database's
            // catalogue).
            body["cloud_provider"] = json!({"provider": "AWS", "cluster": "eu-west-3"});
        }
        Answer {
            status,
            body: Some(body),
        }
    }

    /// The environment's services: one of each kind, from the document's schema of each.
    fn services(&self) -> Value {
        let operation = self
            .document
            .operation("get", "/environment/{environmentId}/services")
            .expect("the document lists an environment's services");
        let schema = operation.response_schema(200).expect("a list");
        let mapping = &self
            .document
            .resolve(&schema["properties"]["results"]["items"])["discriminator"]["mapping"];
        let results: Vec<Value> = ids::SERVICES
            .iter()
            .filter_map(|(_, service_type, id)| {
                let reference = mapping[*service_type].as_str()?;
                let schema = json!({ "$ref": reference });
                let mut item = sample::build(&self.document, &schema, self.fields);
                item["id"] = json!(id);
                item["service_type"] = json!(service_type);
                item["name"] = json!(format!("sample {}", service_type.to_ascii_lowercase()));
                wire_keys(&mut item, Some(*id));
                Some(item)
            })
            .collect();
        json!({ "results": results })
    }

    /// Gives the answer of the request at `segments` the stand-in's ids.
    fn wire(&self, body: &mut Value, segments: &[&str]) {
        let last = segments.last().copied().unwrap_or_default();
        // The last record the path names by id: `/application/ID/status` is the application's.
        let subject = segments
            .windows(2)
            .filter_map(|pair| {
                let id = pair[1].parse::<Uuid>().ok()?;
                (entity(pair[0]).is_some() || pair[0] == "service").then_some(id)
            })
            .next_back();
        if segments.first() == Some(&"environment") && last == "statuses" {
            body["environment"]["id"] = json!(ids::ENVIRONMENT);
            for (segment, _, id) in ids::SERVICES {
                let list = format!("{segment}s");
                if let Some(Value::Array(statuses)) = body.get_mut(&list) {
                    statuses.truncate(1);
                    for status in statuses.iter_mut() {
                        status["id"] = json!(id);
                    }
                }
            }
            wire_keys(body, None);
            return;
        }
        let has_id = body.get("id").is_some();
        match (entity(last), body.get_mut("results")) {
            // A list of the records a segment names: one, the stand-in's.
            (Some(id), Some(Value::Array(items)))
                if segments.len() > 1 || last == "organization" =>
            {
                items.truncate(1);
                for item in items.iter_mut() {
                    if item.get("id").is_some() {
                        item["id"] = json!(id);
                    }
                }
            }
            // A record created in a collection.
            (Some(id), None) if segments.len() > 1 && has_id => body["id"] = json!(id),
            (None, None) if has_id => {
                if let Some(subject) = subject {
                    body["id"] = json!(subject);
                }
            }
            _ => {}
        }
        wire_keys(body, subject.filter(|id| is_service(*id)));
    }
}

/// The items of a sample's lists are copies of one: each is given an id of its own, as the
/// platform's records have.
fn distinct_ids(value: &mut Value) {
    match value {
        Value::Array(items) => {
            for item in items.iter_mut().skip(1) {
                if let Some(id) = item.get_mut("id").filter(|id| id.is_string()) {
                    *id = json!(Uuid::new_v4());
                }
            }
            items.iter_mut().for_each(distinct_ids);
        }
        Value::Object(fields) => fields.values_mut().for_each(distinct_ids),
        _ => {}
    }
}

/// The keys that name a record of the hierarchy, at any depth, given the stand-in's ids;
/// `service` is the service the answer is about, if any.
fn wire_keys(value: &mut Value, service: Option<Uuid>) {
    match value {
        Value::Object(fields) => {
            for (key, field) in fields.iter_mut() {
                let id = match key.as_str() {
                    "organization_id" => Some(ids::ORGANIZATION),
                    "project_id" => Some(ids::PROJECT),
                    "environment_id" => Some(ids::ENVIRONMENT),
                    "cluster_id" => Some(ids::CLUSTER),
                    "service_id" => service,
                    _ => None,
                };
                match (id, &mut *field) {
                    (Some(id), Value::String(_)) => *field = json!(id),
                    (None, Value::Object(record)) if record.contains_key("id") => {
                        if let Some(id) = entity(key) {
                            record.insert("id".into(), json!(id));
                        }
                        wire_keys(field, service);
                    }
                    _ => wire_keys(field, service),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|item| wire_keys(item, service)),
        _ => {}
    }
}

/// Every service status in the answer (an object with `state` and `status_details`), and the
/// environment's state, made to say `condition`.
fn patch_statuses(value: &mut Value, condition: Condition) {
    let (state, status, environment) = match condition {
        Condition::Deployed => ("DEPLOYED", "SUCCESS", "DEPLOYED"),
        Condition::Deploying => ("DEPLOYING", "ONGOING", "DEPLOYING"),
        Condition::Queued => ("DEPLOYMENT_QUEUED", "QUEUED", "DEPLOYMENT_QUEUED"),
    };
    match value {
        Value::Object(fields) => {
            if fields.contains_key("state") && fields.contains_key("status_details") {
                fields.insert("state".into(), json!(state));
                fields.insert("service_deployment_status".into(), json!("UP_TO_DATE"));
                if let Some(details) = fields.get_mut("status_details") {
                    details["action"] = json!("DEPLOY");
                    details["status"] = json!(status);
                }
                let request = (condition == Condition::Queued).then_some(ids::DEPLOYMENT_REQUEST);
                fields.insert("deployment_request_id".into(), json!(request));
            } else if fields.contains_key("state") && fields.contains_key("last_deployment_state") {
                fields.insert("state".into(), json!(environment));
            }
            if let Some(identifier) = fields.get_mut("identifier") {
                if identifier.get("deployment_request_id").is_some() {
                    identifier["deployment_request_id"] = json!(ids::DEPLOYMENT_REQUEST);
                }
            }
            fields
                .values_mut()
                .for_each(|field| patch_statuses(field, condition));
        }
        Value::Array(items) => items
            .iter_mut()
            .for_each(|item| patch_statuses(item, condition)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stand_in() -> StandIn {
        StandIn::new(Document::production(), Fields::RequiredWithResults)
    }

    #[test]
    fn the_hierarchy_links_and_unknown_routes_are_not_found() {
        let stand_in = stand_in();
        let projects = stand_in.answer(
            "GET",
            &format!("/organization/{}/project", ids::ORGANIZATION),
        );
        assert_eq!(projects.status, 200);
        assert_eq!(
            projects.body.unwrap()["results"][0]["id"],
            json!(ids::PROJECT)
        );
        let services = stand_in.answer(
            "GET",
            &format!("/environment/{}/services", ids::ENVIRONMENT),
        );
        let services = services.body.unwrap();
        let kinds: Vec<&str> = services["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|service| service["service_type"].as_str().unwrap())
            .collect();
        assert_eq!(
            kinds,
            [
                "APPLICATION",
                "CONTAINER",
                "DATABASE",
                "JOB",
                "HELM",
                "TERRAFORM"
            ]
        );
        let statuses = stand_in.answer(
            "GET",
            &format!("/environment/{}/statuses", ids::ENVIRONMENT),
        );
        assert_eq!(statuses.body.unwrap()["helms"][0]["id"], json!(ids::HELM));
        let status = stand_in
            .answer("GET", &format!("/job/{}/status", ids::JOB))
            .body
            .unwrap();
        assert_eq!(
            (&status["id"], &status["state"]),
            (&json!(ids::JOB), &json!("DEPLOYED"))
        );

        stand_in.set_condition(Condition::Queued);
        let status = stand_in
            .answer("GET", &format!("/job/{}/status", ids::JOB))
            .body
            .unwrap();
        assert_eq!(
            status["deployment_request_id"],
            json!(ids::DEPLOYMENT_REQUEST)
        );

        let missing = stand_in.answer("POST", &format!("/job/{}/cancel", ids::JOB));
        assert_eq!(missing.status, 404);
        let deleted = stand_in.answer("DELETE", &format!("/job/{}", ids::JOB));
        assert_eq!((deleted.status, deleted.body), (204, None));
        let seen = stand_in.seen();
        assert_eq!(seen.len(), 7);
        assert_eq!(seen[5].operation, None);
        assert_eq!(seen[6].operation.as_deref(), Some("/job/{jobId}"));
    }
}
