import {defineDoctorHook, doctorReport} from '@hanzo-dev/sdk'

// Placeholder, replaced by the hooks checks.
export default defineDoctorHook(async () => doctorReport([{id: 'hooks.stub', status: 'skip', title: 'hooks checks not written yet'}]))
