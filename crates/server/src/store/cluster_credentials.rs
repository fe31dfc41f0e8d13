//! Credentials to reach clouds with, kept as organization records of one kind per cloud, and
//! which set each cluster uses (`cluster_credentials`).

use platform_api::{CloudProvider, ClusterCredentials, CredentialCluster, CredentialsWithClusters};
use sqlx::SqliteConnection;
use uuid::fmt::Hyphenated;
use uuid::Uuid;

use crate::db::MaybeId;
use crate::error::{ApiError, ApiResult};
use crate::store::organization_resources::{Kind, CLUSTERS};

pub const AWS_CREDENTIALS: Kind = Kind {
    stored_as: "aws_credentials",
    what: "set of AWS credentials",
};
pub const PROVIDER_A_CREDENTIALS: Kind = Kind {
    stored_as: "provider_a_credentials",
    what: "set of Provider A credentials",
};
pub const PROVIDER_E_CREDENTIALS: Kind = Kind {
    stored_as: "provider_e_credentials",
    what: "set of Provider E credentials",
};
pub const PROVIDER_F_CREDENTIALS: Kind = Kind {
    stored_as: "provider_f_credentials",
    what: "set of Provider F credentials",
};
pub const ON_PREMISE_CREDENTIALS: Kind = Kind {
    stored_as: "on_premise_credentials",
    what: "on-premise credentials",
};

/// The kind credentials of `provider` are stored as.
pub fn kind_of(provider: CloudProvider) -> Option<Kind> {
    Some(match provider {
        CloudProvider::Aws => AWS_CREDENTIALS,
        CloudProvider::ProviderA => PROVIDER_A_CREDENTIALS,
        CloudProvider::ProviderE => PROVIDER_E_CREDENTIALS,
        CloudProvider::ProviderF => PROVIDER_F_CREDENTIALS,
        CloudProvider::OnPremise => ON_PREMISE_CREDENTIALS,
        _ => return None,
    })
}

/// Every kind of credentials, for the organization's list.
const ALL: [Kind; 5] = [
    AWS_CREDENTIALS,
    PROVIDER_A_CREDENTIALS,
    PROVIDER_E_CREDENTIALS,
    PROVIDER_F_CREDENTIALS,
    ON_PREMISE_CREDENTIALS,
];

/// `cluster` is reached with `credentials` from now on.
pub async fn choose(
    conn: &mut SqliteConnection,
    organization_id: Uuid,
    cluster_id: Uuid,
    credentials_id: Uuid,
) -> ApiResult<()> {
    sqlx::query(
        "INSERT INTO cluster_credentials (cluster_id, organization_id, credentials_id)
         VALUES (?, ?, ?)
         ON CONFLICT (cluster_id) DO UPDATE SET credentials_id = excluded.credentials_id",
    )
    .bind(cluster_id.hyphenated())
    .bind(organization_id.hyphenated())
    .bind(credentials_id.hyphenated())
    .execute(conn)
    .await?;
    Ok(())
}

/// The id and name of the credentials `cluster` is reached with, when chosen.
pub async fn of_cluster<'e>(
    db: impl sqlx::SqliteExecutor<'e>,
    cluster_id: Uuid,
) -> ApiResult<Option<(Uuid, String)>> {
    #[derive(sqlx::FromRow)]
    struct Chosen {
        #[sqlx(try_from = "Hyphenated")]
        id: Uuid,
        name: String,
    }
    let chosen: Option<Chosen> = sqlx::query_as(
        "SELECT r.id, r.name FROM cluster_credentials u
         JOIN organization_resources r ON r.id = u.credentials_id
         WHERE u.cluster_id = ?",
    )
    .bind(cluster_id.hyphenated())
    .fetch_optional(db)
    .await?;
    Ok(chosen.map(|chosen| (chosen.id, chosen.name)))
}

/// Every set of credentials of the organization, of every cloud, by name, each with the
/// clusters reached with it: one query.
pub async fn with_clusters<'e>(
    db: impl sqlx::SqliteExecutor<'e>,
    organization_id: Uuid,
) -> ApiResult<Vec<CredentialsWithClusters>> {
    #[derive(sqlx::FromRow)]
    struct Row {
        #[sqlx(try_from = "Hyphenated")]
        id: Uuid,
        record: String,
        #[sqlx(try_from = "MaybeId")]
        cluster_id: Option<Uuid>,
        cluster_name: Option<String>,
        cloud_provider: Option<CloudProvider>,
    }
    let kinds = vec!["?"; ALL.len()].join(", ");
    let query = format!(
        "SELECT r.id, r.record, k.id AS cluster_id, k.name AS cluster_name,
                json_extract(k.record, '$.cloud_provider') AS cloud_provider
         FROM organization_resources r
         LEFT JOIN cluster_credentials u ON u.credentials_id = r.id
         LEFT JOIN organization_resources k ON k.id = u.cluster_id AND k.kind = ?
         WHERE r.organization_id = ? AND r.kind IN ({kinds})
         ORDER BY r.name, r.id, k.name"
    );
    let mut select = sqlx::query_as::<_, Row>(&query)
        .bind(CLUSTERS.stored_as)
        .bind(organization_id.hyphenated());
    for kind in ALL {
        select = select.bind(kind.stored_as);
    }
    let mut listed: Vec<CredentialsWithClusters> = Vec::new();
    for row in select.fetch_all(db).await? {
        if listed
            .last()
            .is_none_or(|last| last.credential.as_ref().map(|c| c.id) != Some(row.id))
        {
            let credential: ClusterCredentials =
                serde_json::from_str(&row.record).map_err(ApiError::internal)?;
            listed.push(CredentialsWithClusters {
                credential: Some(credential),
                clusters: Vec::new(),
            });
        }
        if let (Some(id), Some(name), Some(cloud_provider)) =
            (row.cluster_id, row.cluster_name, row.cloud_provider)
        {
            if let Some(last) = listed.last_mut() {
                last.clusters.push(CredentialCluster {
                    id,
                    name,
                    cloud_provider,
                });
            }
        }
    }
    Ok(listed)
}
