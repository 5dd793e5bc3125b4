import {defineDoctorHook, doctorReport} from '@hanzo-dev/sdk'

// Placeholder, replaced by the lsp checks.
export default defineDoctorHook(async () => doctorReport([{id: 'lsp.stub', status: 'skip', title: 'lsp checks not written yet'}]))
