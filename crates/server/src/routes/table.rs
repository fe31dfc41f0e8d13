//! The route table. Every API route is registered here together with the permission it requires,
//! so the routes served and the table of permissions cannot disagree. Each route gets the auth
//! layer: 401 without a valid token, 429 over the rate limit, 403 when the role falls short (a
//! person's role being theirs in the organization the request is about: `addressed`).

use axum::extract::{Request, State};
use axum::handler::Handler;
use axum::http::Method;
use axum::middleware::{from_fn_with_state, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{on, MethodFilter};
use axum::Router;

use super::addressed;
use super::doc::Doc;
use crate::auth::{authenticate, person_caller, Signed};
use crate::caller::{Caller, Permission};
use crate::error::ApiError;
use crate::state::AppState;

/// One row of the table: a method and path template, the permission it needs, and its
/// documentation.
#[derive(Clone, Debug)]
pub struct RouteRule {
    pub method: Method,
    pub path: String,
    pub permission: Permission,
    pub doc: Doc,
}

pub struct RouteTable {
    state: AppState,
    router: Router<AppState>,
    rules: Vec<RouteRule>,
}

impl RouteTable {
    pub fn new(state: AppState) -> Self {
        Self {
            state,
            router: Router::new(),
            rules: Vec::new(),
        }
    }

    /// Serves `handler` at `method path` to callers whose role grants `permission`, documented by
    /// `doc`.
    pub fn add<H, T>(
        &mut self,
        method: Method,
        path: impl Into<String>,
        permission: Permission,
        doc: Doc,
        handler: H,
    ) -> &mut Self
    where
        H: Handler<T, AppState>,
        T: 'static,
    {
        let path = path.into();
        let filter = MethodFilter::try_from(method.clone())
            .unwrap_or_else(|_| panic!("{method} is not a method the API serves"));
        let guarded = on(filter, handler).route_layer(from_fn_with_state(
            (self.state.clone(), permission, path.clone()),
            authorize,
        ));
        self.router = std::mem::take(&mut self.router).route(&path, guarded);
        self.rules.push(RouteRule {
            method,
            path,
            permission,
            doc,
        });
        self
    }

    pub fn rules(&self) -> &[RouteRule] {
        &self.rules
    }

    pub fn into_router(self) -> Router<AppState> {
        self.router
    }
}

async fn authorize(
    State((state, needed, template)): State<(AppState, Permission, String)>,
    request: Request,
    next: Next,
) -> Response {
    let (mut parts, body) = request.into_parts();
    let (caller, body) = match caller(&state, (needed, &template), &parts, body).await {
        Ok((caller, body)) => (caller.with_client(&parts.headers), body),
        Err(error) => return error.into_response(),
    };
    let quota = state.rate_limiter.hit(&caller.rate_key());
    let mut response = if let Err(error) = quota.check() {
        error.into_response()
    } else if let Err(error) = caller.require(needed) {
        error.into_response()
    } else {
        parts.extensions.insert(caller);
        next.run(Request::from_parts(parts, body)).await
    };
    quota.write_headers(response.headers_mut());
    response
}

/// Who calls, in the organization the request is about for a person; the body, read when the
/// organization had to be found in it, handed back whole.
async fn caller(
    state: &AppState,
    (needed, template): (Permission, &str),
    parts: &axum::http::request::Parts,
    body: axum::body::Body,
) -> Result<(Caller, axum::body::Body), ApiError> {
    match authenticate(state, &parts.headers).await? {
        Signed::Caller(caller) => Ok((caller, body)),
        Signed::Person(person) => {
            let (organization, body) =
                addressed::organization(state, template, parts, body).await?;
            Ok((
                person_caller(state, person, organization, needed).await?,
                body,
            ))
        }
    }
}
