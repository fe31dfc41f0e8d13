//! What applications and containers run with: CPU, memory, GPUs and how many instances; the same
//! fields in the forms that create them and in those that change them.

use leptos::prelude::*;
use platform_api::FieldError;

use crate::components::form::Numbers;
use crate::components::form_field::TextField;

/// The fields' values as typed.
#[derive(Clone, Copy)]
pub struct Resources {
    cpu: RwSignal<String>,
    memory: RwSignal<String>,
    gpu: RwSignal<String>,
    min_instances: RwSignal<String>,
    max_instances: RwSignal<String>,
}

/// The resources as typed, in request terms.
pub struct ResourceValues {
    pub cpu: i64,
    pub memory: i64,
    pub gpu: i64,
    pub min_running_instances: i64,
    pub max_running_instances: i64,
}

impl Resources {
    /// A service's present resources.
    pub fn of(cpu: i64, memory: i64, gpu: i64, min_instances: i64, max_instances: i64) -> Self {
        Self {
            cpu: RwSignal::new(cpu.to_string()),
            memory: RwSignal::new(memory.to_string()),
            gpu: RwSignal::new(gpu.to_string()),
            min_instances: RwSignal::new(min_instances.to_string()),
            max_instances: RwSignal::new(max_instances.to_string()),
        }
    }

    pub fn read(&self, numbers: &mut Numbers) -> ResourceValues {
        ResourceValues {
            cpu: numbers.read("cpu", &self.cpu.get_untracked()),
            memory: numbers.read("memory", &self.memory.get_untracked()),
            gpu: numbers.read("gpu", &self.gpu.get_untracked()),
            min_running_instances: numbers
                .read("min_running_instances", &self.min_instances.get_untracked()),
            max_running_instances: numbers
                .read("max_running_instances", &self.max_instances.get_untracked()),
        }
    }
}

#[component]
pub fn ResourceFields(resources: Resources, errors: RwSignal<Vec<FieldError>>) -> impl IntoView {
    view! {
        <TextField label="CPU (milli-CPU)" name="cpu" value=resources.cpu errors input_type="number"
            hint="1000 is one vCPU."/>
        <TextField label="Memory (MiB)" name="memory" value=resources.memory errors input_type="number"/>
        <TextField label="GPUs" name="gpu" value=resources.gpu errors input_type="number"/>
        <TextField label="Minimum instances" name="min_running_instances" value=resources.min_instances
            errors input_type="number"/>
        <TextField label="Maximum instances" name="max_running_instances" value=resources.max_instances
            errors input_type="number"/>
    }
}
