import {defineDoctorHook, doctorReport} from '@hanzo-dev/sdk'

// Placeholder, replaced by the sandbox checks.
export default defineDoctorHook(async () => doctorReport([{id: 'sandbox.stub', status: 'skip', title: 'sandbox checks not written yet'}]))
