import {defineDoctorHook, doctorReport} from '@hanzo-dev/sdk'

// Placeholder, replaced by the agents checks.
export default defineDoctorHook(async () => doctorReport([{id: 'agents.stub', status: 'skip', title: 'agents checks not written yet'}]))
