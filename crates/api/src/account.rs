//! Who is signed in (`GET /account`): an API token, a member, or a person signed in through the
//! identity provider, as the server knows them. The console says who is signed in in its
//! header.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

/// The document requires none of its fields; this server leaves out the names and picture it
/// does not know.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AccountInfo {
    #[serde(default)]
    pub id: Option<Uuid>,
    #[serde(default)]
    #[serde(with = "crate::timestamp::option")]
    pub created_at: Option<DateTime<Utc>>,
    #[serde(default)]
    pub nickname: Option<String>,
    #[serde(default)]
    pub first_name: Option<String>,
    #[serde(default)]
    pub last_name: Option<String>,
    #[serde(default)]
    pub profile_picture_url: Option<String>,
    #[serde(default)]
    pub communication_email: Option<String>,
}

impl AccountInfo {
    /// How the console names the account: its first and last name, else its nickname, else
    /// its e-mail address.
    pub fn said(&self) -> Option<String> {
        let full = [self.first_name.as_deref(), self.last_name.as_deref()]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .join(" ");
        (!full.is_empty())
            .then_some(full)
            .or_else(|| self.nickname.clone())
            .or_else(|| self.communication_email.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_account_is_named_by_its_names_else_its_nickname_else_its_address() {
        let mut account = AccountInfo {
            communication_email: Some("ada@example.com".into()),
            ..AccountInfo::default()
        };
        assert_eq!(account.said().as_deref(), Some("ada@example.com"));
        account.nickname = Some("ada".into());
        assert_eq!(account.said().as_deref(), Some("ada"));
        account.first_name = Some("Ada".into());
        account.last_name = Some("Lovelace".into());
        assert_eq!(account.said().as_deref(), Some("Ada Lovelace"));
        assert_eq!(AccountInfo::default().said(), None);
    }
}
