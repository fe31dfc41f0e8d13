use gloo_net::http::Response;
use platform_api::{ErrorBody, FieldError};

/// Why an action button is disabled after the server answered 403 to it.
pub const DEPLOY_FORBIDDEN: &str = "Your token's role does not allow deployments.";

/// What can go wrong with a call, in terms a person acts on.
#[derive(Clone, Debug, PartialEq)]
pub enum ApiError {
    /// No session: the person must sign in.
    NotSignedIn,
    /// 401: the token is unknown, deleted or expired.
    Unauthorized(String),
    /// 403: the token's role does not allow the call.
    Forbidden(String),
    NotFound(String),
    /// 400 with the fields that broke a rule.
    Invalid {
        message: String,
        fields: Vec<FieldError>,
    },
    /// 409: a name is taken, or an action is already running.
    Conflict {
        message: String,
        fields: Vec<FieldError>,
    },
    /// 429 (over the rate limit) or 503 (the server busy) after the retries ran out: either
    /// says how long to wait before the same request may be sent again.
    AskedToWait {
        seconds: u32,
    },
    /// The API could not be reached.
    Network(String),
    /// Any other answer from the server.
    Server {
        status: u16,
        message: String,
    },
    /// The answer was not the JSON the console expects.
    Decode(String),
    /// A change made of several requests stopped at `error`, after `applied` of them.
    PartlyApplied {
        applied: usize,
        error: Box<ApiError>,
    },
}

impl ApiError {
    pub(super) async fn from_response(response: Response) -> Self {
        let status = response.status();
        // The platform's 429 says how long in `X-RateLimit-Reset`; a 503 in `Retry-After`.
        let wait_header = if status == 429 {
            "X-RateLimit-Reset"
        } else {
            "Retry-After"
        };
        let wait_seconds = response
            .headers()
            .get(wait_header)
            .and_then(|value| value.parse().ok())
            .unwrap_or(1);
        let body: Option<ErrorBody> = response.json().await.ok();
        let message = body
            .as_ref()
            .map(|b| b.message.clone())
            .unwrap_or_else(|| format!("The server answered {status}."));
        let fields = body.map(|b| b.fields).unwrap_or_default();
        match status {
            400 => ApiError::Invalid { message, fields },
            401 => ApiError::Unauthorized(message),
            403 => ApiError::Forbidden(message),
            404 => ApiError::NotFound(message),
            409 => ApiError::Conflict { message, fields },
            429 | 503 => ApiError::AskedToWait {
                seconds: wait_seconds,
            },
            _ => ApiError::Server { status, message },
        }
    }

    /// The server's per-field messages, to show under each field.
    pub fn fields(&self) -> &[FieldError] {
        match self {
            ApiError::Invalid { fields, .. } | ApiError::Conflict { fields, .. } => fields,
            ApiError::PartlyApplied { error, .. } => error.fields(),
            _ => &[],
        }
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ApiError::NotSignedIn => write!(f, "You are not signed in."),
            ApiError::Unauthorized(_) => write!(
                f,
                "Your session has ended: the token is unknown, deleted or expired. Sign in again."
            ),
            ApiError::Forbidden(_) => write!(f, "Your token's role does not allow this."),
            ApiError::NotFound(message) => write!(f, "Not found. {message}"),
            ApiError::Invalid { message, .. } => write!(f, "{message}"),
            ApiError::Conflict { message, .. } => write!(f, "{message}"),
            ApiError::AskedToWait { seconds } => write!(
                f,
                "The API is busy or limiting requests: it asked to wait {seconds} s. Try again shortly."
            ),
            ApiError::Network(base_url) => write!(
                f,
                "Cannot reach the API at {base_url}. Check your connection or the API address."
            ),
            ApiError::Server { status, message } => {
                write!(f, "The server failed ({status}): {message}")
            }
            ApiError::Decode(detail) => write!(
                f,
                "The API answered something this console does not understand ({detail})."
            ),
            ApiError::PartlyApplied { applied, error } => write!(
                f,
                "{error} The {applied} change{} before it {} made.",
                if *applied == 1 { "" } else { "s" },
                if *applied == 1 { "was" } else { "were" }
            ),
        }
    }
}

impl std::error::Error for ApiError {}
