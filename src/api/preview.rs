//! Preview environments (ours, `Enhancement::Previews`): an environment's previews and what it
//! previews. The switches that make them are the environment's deployment rule (the document's).

use gloo_net::http::Method;
use platform_api::paths;
use platform_api::EnvironmentPreviews;
use uuid::Uuid;

use super::{Api, ApiError, Enhancement};

impl Api {
    /// The environment's previews and what it previews; `None` where the API does not say.
    pub async fn environment_previews(
        &self,
        environment: Uuid,
    ) -> Result<Option<EnvironmentPreviews>, ApiError> {
        let path = paths::ENVIRONMENT_PREVIEWS.at(&[environment]);
        self.enhanced::<(), _>(Enhancement::Previews, Method::GET, &path, None)
            .await
    }
}
