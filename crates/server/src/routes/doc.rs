//! The OpenAPI 3 document, generated from the route table: each route is registered with its
//! `Doc` (summary, request body, answer), so every route served is documented.

use axum::http::{Method, StatusCode};
use platform_api::ErrorBody;
use utoipa::openapi::path::{
    HttpMethod, Operation, OperationBuilder, ParameterBuilder, ParameterIn,
};
use utoipa::openapi::request_body::RequestBodyBuilder;

/// What every request body's schema leaves unsaid: the production document's fields this server
/// does not use are accepted (`platform_fields.rs`), any other field is refused.
const UNKNOWN_FIELDS: &str = "JSON, at most 1 MiB. A field that neither this schema nor the \
    production API names is refused with a 400 that names it.";
use utoipa::openapi::schema::{
    ArrayBuilder, ComponentsBuilder, KnownFormat, Object, ObjectBuilder, OneOfBuilder, Schema,
    SchemaFormat, Type,
};
use utoipa::openapi::security::{
    ApiKey, ApiKeyValue, HttpAuthScheme, HttpBuilder, SecurityRequirement, SecurityScheme,
};
use utoipa::openapi::{
    ContentBuilder, InfoBuilder, OpenApi, OpenApiBuilder, PathItem, PathsBuilder, Ref, RefOr,
    Required, ResponseBuilder,
};
use utoipa::ToSchema;

use super::RouteRule;

/// A JSON body's schema, with the named schemas it refers to.
#[derive(Clone)]
struct Payload {
    schema: RefOr<Schema>,
    components: Vec<(String, RefOr<Schema>)>,
}

/// A request with a part flattened inline into it (`RuntimeRequest` in an application's and a
/// container's) written as the one object the wire has: utoipa writes it `allOf` the part and
/// the rest, which would make its `Edit` keep the part's required fields.
fn written_flat(schema: &mut RefOr<Schema>) {
    let RefOr::T(Schema::AllOf(all_of)) = schema else {
        return;
    };
    let parts: Option<Vec<&Object>> = all_of
        .items
        .iter()
        .map(|part| match part {
            RefOr::T(Schema::Object(object)) => Some(object),
            // An inline part with a description is written as the one choice of a `oneOf`.
            RefOr::T(Schema::OneOf(one_of)) => match &one_of.items[..] {
                [RefOr::T(Schema::Object(object))] => Some(object),
                _ => None,
            },
            _ => None,
        })
        .collect();
    let Some(parts) = parts else {
        return;
    };
    let mut merged = ObjectBuilder::new()
        .schema_type(Type::Object)
        .description(all_of.description.clone());
    for part in parts {
        for (name, property) in &part.properties {
            merged = merged.property(name, property.clone());
        }
        for name in &part.required {
            merged = merged.required(name);
        }
    }
    *schema = RefOr::T(Schema::Object(merged.build()));
}

/// One of the types a list may hold (`Doc::answers_list_of_any`).
pub struct Item(Payload);

pub fn item<T: ToSchema>() -> Item {
    Item(Payload::of::<T>())
}

impl Payload {
    fn of<T: ToSchema>() -> Self {
        let mut components = vec![(T::name().to_string(), T::schema())];
        T::schemas(&mut components);
        for (_, schema) in &mut components {
            written_flat(schema);
        }
        Self {
            schema: RefOr::Ref(Ref::from_schema_name(T::name())),
            components,
        }
    }

    /// A schema built here rather than from a type (`advanced_settings`'s, from its catalogue),
    /// under `name`.
    fn named(name: &str, schema: Schema) -> Self {
        Self {
            schema: RefOr::Ref(Ref::from_schema_name(name)),
            components: vec![(name.to_string(), RefOr::T(schema))],
        }
    }

    /// `T` with no required field, named `<T>Edit`: an update whose left-out fields keep their
    /// values.
    fn edit_of<T: ToSchema>() -> Self {
        let mut schema = T::schema();
        written_flat(&mut schema);
        if let RefOr::T(Schema::Object(object)) = &mut schema {
            object.required.clear();
        }
        let name = format!("{}Edit", T::name());
        let mut components = vec![(name.clone(), schema)];
        T::schemas(&mut components);
        Self {
            schema: RefOr::Ref(Ref::from_schema_name(name)),
            components,
        }
    }

    /// `{"results": [T]}`, the shape of every list (a generic schema would give every list one
    /// name).
    fn list_of<T: ToSchema>() -> Self {
        let item = Self::of::<T>();
        let schema = ObjectBuilder::new()
            .property("results", ArrayBuilder::new().items(item.schema))
            .required("results")
            .into();
        Self {
            schema: RefOr::T(schema),
            components: item.components,
        }
    }

    /// `{"results": [T], "page", "page_size"}`: a list paged when asked (`PageQuery`).
    fn page_of<T: ToSchema>() -> Self {
        let item = Self::of::<T>();
        let number = |description: &str| {
            ObjectBuilder::new()
                .schema_type(Type::Integer)
                .description(Some(description))
        };
        let schema = ObjectBuilder::new()
            .property("results", ArrayBuilder::new().items(item.schema))
            .required("results")
            .property("page", number("The page's number, when asked for by pages"))
            .property(
                "page_size",
                number("The page's size, when asked for by pages"),
            )
            .into();
        Self {
            schema: RefOr::T(schema),
            components: item.components,
        }
    }

    /// `[T]`, for the few answers of the production document that are a bare array.
    fn array_of<T: ToSchema>() -> Self {
        let item = Self::of::<T>();
        Self {
            schema: RefOr::T(ArrayBuilder::new().items(item.schema).into()),
            components: item.components,
        }
    }
}

#[derive(Clone)]
struct QueryParameter {
    name: String,
    required: bool,
    schema: Schema,
}

/// A query parameter's schema: an integer from `minimum` to `maximum`.
pub fn integer(minimum: i64, maximum: i64) -> ObjectBuilder {
    ObjectBuilder::new()
        .schema_type(Type::Integer)
        .minimum(Some(minimum as f64))
        .maximum(Some(maximum as f64))
}

/// A query parameter's schema: `true` or `false`.
pub fn boolean() -> ObjectBuilder {
    ObjectBuilder::new().schema_type(Type::Boolean)
}

/// A query parameter's schema: a string.
pub fn text() -> ObjectBuilder {
    ObjectBuilder::new().schema_type(Type::String)
}

/// A query parameter's schema: a uuid.
pub fn uuid() -> ObjectBuilder {
    text().format(Some(SchemaFormat::KnownFormat(KnownFormat::Uuid)))
}

/// A query parameter's schema: one of `values`.
pub fn one_of(values: impl IntoIterator<Item = &'static str>) -> ObjectBuilder {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .enum_values(Some(values))
}

/// A query parameter's schema: one value of the wire enumeration `T`.
pub fn one_of_enum<T: platform_api::WireEnum>() -> ObjectBuilder {
    one_of(T::all().iter().map(|value| value.as_str()))
}

/// What a route does, takes and answers, for the document.
#[derive(Clone)]
pub struct Doc {
    summary: String,
    query: Vec<QueryParameter>,
    body: Option<Payload>,
    status: StatusCode,
    answer: Option<Payload>,
}

impl Doc {
    /// A route answering 200 with nothing documented yet; refine with `body` and `answers`.
    pub fn new(summary: impl Into<String>) -> Self {
        Self {
            summary: summary.into(),
            query: Vec::new(),
            body: None,
            status: StatusCode::OK,
            answer: None,
        }
    }

    /// The route takes a JSON body of type `T`.
    pub fn body<T: ToSchema>(mut self) -> Self {
        self.body = Some(Payload::of::<T>());
        self
    }

    /// The route takes a JSON body of `schema`, named `name` in the document.
    pub fn body_named(mut self, name: &str, schema: Schema) -> Self {
        self.body = Some(Payload::named(name, schema));
        self
    }

    /// The route answers `status` with a JSON body of `schema`, named `name` in the document.
    pub fn answers_named(mut self, name: &str, schema: Schema, status: StatusCode) -> Self {
        self.status = status;
        self.answer = Some(Payload::named(name, schema));
        self
    }

    /// The route reads the query parameter `name`, of `schema`.
    pub fn query(mut self, name: &str, required: bool, schema: ObjectBuilder) -> Self {
        self.query.push(QueryParameter {
            name: name.to_string(),
            required,
            schema: schema.into(),
        });
        self
    }

    /// The route takes a `T` whose fields may all be left out (they keep their values).
    pub fn edit_body<T: ToSchema>(mut self) -> Self {
        self.body = Some(Payload::edit_of::<T>());
        self
    }

    /// The route answers `status` with a JSON body of type `T`.
    pub fn answers<T: ToSchema>(mut self, status: StatusCode) -> Self {
        self.status = status;
        self.answer = Some(Payload::of::<T>());
        self
    }

    /// The route answers `status` with a list of `T`, as `{"results": [...]}`.
    pub fn answers_list_of<T: ToSchema>(mut self, status: StatusCode) -> Self {
        self.status = status;
        self.answer = Some(Payload::list_of::<T>());
        self
    }

    /// The route answers a list of `T`, whole unless `page` and `pageSize` (1 to `page_size_max`)
    /// ask for a page.
    pub fn answers_pages_of<T: ToSchema>(self, page_size_max: i64) -> Self {
        let mut doc = self
            .query("page", false, integer(1, platform_api::PAGE_MAX))
            .query("pageSize", false, integer(1, page_size_max));
        doc.status = StatusCode::OK;
        doc.answer = Some(Payload::page_of::<T>());
        doc
    }

    /// The route answers `status` with a bare array of `T` (not in `results`).
    pub fn answers_array_of<T: ToSchema>(mut self, status: StatusCode) -> Self {
        self.status = status;
        self.answer = Some(Payload::array_of::<T>());
        self
    }

    /// The route answers `status` with a list whose items are each one of `items`.
    pub fn answers_list_of_any(mut self, status: StatusCode, items: Vec<Item>) -> Self {
        let mut one_of = OneOfBuilder::new();
        let mut components = Vec::new();
        for Item(payload) in items {
            one_of = one_of.item(payload.schema);
            components.extend(payload.components);
        }
        let schema = ObjectBuilder::new()
            .property("results", ArrayBuilder::new().items(one_of))
            .required("results")
            .into();
        self.status = status;
        self.answer = Some(Payload {
            schema: RefOr::T(schema),
            components,
        });
        self
    }

    /// The route answers `status` with no body (204 after a delete).
    pub fn answers_nothing(mut self, status: StatusCode) -> Self {
        self.status = status;
        self.answer = None;
        self
    }
}

impl std::fmt::Debug for Doc {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Doc")
            .field("summary", &self.summary)
            .field("status", &self.status)
            .finish_non_exhaustive()
    }
}

const API_TOKEN: &str = "ApiToken";
const ACCESS_TOKEN: &str = "AccessToken";

/// The document of every route in `rules`, plus `GET /openapi.json` itself.
pub fn openapi(rules: &[RouteRule]) -> OpenApi {
    let mut components = security_schemes();
    let error = Payload::of::<ErrorBody>();
    for (name, schema) in &error.components {
        components = components.schema(name.clone(), schema.clone());
    }

    let mut paths = PathsBuilder::new();
    let mut taken = std::collections::BTreeSet::new();
    for rule in rules {
        let doc = &rule.doc;
        // Two paths of the same words (`/a/{id}/b`, `/a/b`): the one with a parameter says so.
        let mut id = operation_id(&rule.method, &rule.path);
        if !taken.insert(id.clone()) {
            id.push_str(if rule.path.contains('{') {
                "_by_id"
            } else {
                "_without_id"
            });
            taken.insert(id.clone());
        }
        for payload in doc.body.iter().chain(&doc.answer) {
            for (name, schema) in &payload.components {
                components = components.schema(name.clone(), schema.clone());
            }
        }
        paths = paths.path(
            rule.path.clone(),
            PathItem::new(http_method(&rule.method), operation(rule, id, &error)),
        );
    }
    paths = paths.path("/openapi.json", this_document());

    OpenApiBuilder::new()
        .info(
            InfoBuilder::new()
                .title("Deployment Platform Management API")
                .version(env!("CARGO_PKG_VERSION"))
                .description(Some(
                    "The reference server's API. Paths are relative to the base URL (`/api` on this server).",
                ))
                .build(),
        )
        .paths(paths.build())
        .components(Some(components.build()))
        .build()
}

/// The two ways a caller signs its requests.
fn security_schemes() -> ComponentsBuilder {
    ComponentsBuilder::new()
        .security_scheme(
            API_TOKEN,
            SecurityScheme::ApiKey(ApiKey::Header(ApiKeyValue::with_description(
                "Authorization",
                "An organization API token, sent as `Authorization: Token <token>`.",
            ))),
        )
        .security_scheme(
            ACCESS_TOKEN,
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .bearer_format("JWT")
                    .description(Some(
                        "An access token (JWT, HS256) with claims sub, organization_id, role, exp.",
                    ))
                    .build(),
            ),
        )
}

/// One route's operation: its parameters, body, answer and the errors every route may give.
fn operation(rule: &RouteRule, id: String, error: &Payload) -> Operation {
    let doc = &rule.doc;
    let mut operation = OperationBuilder::new()
        .summary(Some(doc.summary.clone()))
        .operation_id(Some(id))
        .tag(tag(&rule.path))
        .description(Some(format!(
            "Requires a token whose role grants {:?}.",
            rule.permission
        )))
        .security(SecurityRequirement::new(API_TOKEN, Vec::<String>::new()))
        .security(SecurityRequirement::new(ACCESS_TOKEN, Vec::<String>::new()));
    for name in path_parameters(&rule.path) {
        operation = operation.parameter(
            ParameterBuilder::new()
                .name(name)
                .parameter_in(ParameterIn::Path)
                .required(Required::True)
                .schema(Some(
                    ObjectBuilder::new()
                        .schema_type(Type::String)
                        .format(Some(SchemaFormat::KnownFormat(KnownFormat::Uuid))),
                )),
        );
    }
    for parameter in &doc.query {
        operation = operation.parameter(
            ParameterBuilder::new()
                .name(&parameter.name)
                .parameter_in(ParameterIn::Query)
                .required(if parameter.required {
                    Required::True
                } else {
                    Required::False
                })
                .schema(Some(parameter.schema.clone())),
        );
    }
    if let Some(body) = &doc.body {
        operation = operation.request_body(Some(
            RequestBodyBuilder::new()
                .description(Some(UNKNOWN_FIELDS))
                .content(
                    "application/json",
                    ContentBuilder::new()
                        .schema(Some(body.schema.clone()))
                        .build(),
                )
                .required(Some(Required::True))
                .build(),
        ));
    }
    let mut success = ResponseBuilder::new().description(success_description(doc.status));
    if let Some(answer) = &doc.answer {
        success = success.content(
            "application/json",
            ContentBuilder::new()
                .schema(Some(answer.schema.clone()))
                .build(),
        );
    }
    operation = operation.response(doc.status.as_u16().to_string(), success.build());
    for (status, description) in ERRORS {
        operation = operation.response(
            status.to_string(),
            ResponseBuilder::new()
                .description(*description)
                .content(
                    "application/json",
                    ContentBuilder::new()
                        .schema(Some(error.schema.clone()))
                        .build(),
                )
                .build(),
        );
    }
    operation.build()
}

/// `GET /openapi.json` itself.
fn this_document() -> PathItem {
    PathItem::new(
        HttpMethod::Get,
        OperationBuilder::new()
            .summary(Some("This document"))
            .operation_id(Some("get_openapi"))
            .tag("meta")
            .response(
                "200",
                ResponseBuilder::new()
                    .description("The OpenAPI 3 document")
                    .build(),
            )
            .build(),
    )
}

const ERRORS: &[(u16, &str)] = &[
    (400, "The request breaks a rule; `fields` names each field"),
    (401, "The token is missing, unknown, expired or malformed"),
    (403, "The token's role does not allow this call"),
    (404, "No such record in the caller's organization"),
    (409, "A name is taken, or an action is already running"),
    (413, "The body is over the server's limit"),
    (414, "The path and query are over the server's limit"),
    (415, "The body is not sent as JSON"),
    (431, "The headers are over the server's limit"),
    (
        429,
        "Over the rate limit; retry after `X-RateLimit-Reset` seconds",
    ),
    (
        503,
        "The server is too busy now and changed nothing; retry after `Retry-After` seconds",
    ),
];

fn success_description(status: StatusCode) -> &'static str {
    match status {
        StatusCode::CREATED => "Created",
        StatusCode::ACCEPTED => "Accepted: the action runs",
        StatusCode::NO_CONTENT => "Done",
        _ => "OK",
    }
}

fn http_method(method: &Method) -> HttpMethod {
    match *method {
        Method::POST => HttpMethod::Post,
        Method::PUT => HttpMethod::Put,
        Method::PATCH => HttpMethod::Patch,
        Method::DELETE => HttpMethod::Delete,
        _ => HttpMethod::Get,
    }
}

/// `{project_id}` and the like.
fn path_parameters(path: &str) -> impl Iterator<Item = &str> {
    path.split('/')
        .filter_map(|segment| segment.strip_prefix('{')?.strip_suffix('}'))
}

/// The first segment names the resource family: `/project/{id}/environment` is under "project".
fn tag(path: &str) -> String {
    path.split('/')
        .find(|segment| !segment.is_empty())
        .unwrap_or("api")
        .to_string()
}

/// `GET /project/{project_id}/environment` becomes `get_project_environment`.
fn operation_id(method: &Method, path: &str) -> String {
    let words: Vec<&str> = path
        .split('/')
        .filter(|segment| !segment.is_empty() && !segment.starts_with('{'))
        .collect();
    let by_id = path.ends_with('}');
    format!(
        "{}_{}{}",
        method.as_str().to_lowercase(),
        words.join("_"),
        if by_id { "_by_id" } else { "" }
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_come_from_the_path() {
        assert_eq!(
            path_parameters("/project/{project_id}/environment").collect::<Vec<_>>(),
            ["project_id"]
        );
        assert_eq!(tag("/project/{project_id}/environment"), "project");
        assert_eq!(
            operation_id(&Method::GET, "/project/{project_id}"),
            "get_project_by_id"
        );
        assert_eq!(
            operation_id(&Method::POST, "/environment/{environment_id}/application"),
            "post_environment_application"
        );
    }
}
