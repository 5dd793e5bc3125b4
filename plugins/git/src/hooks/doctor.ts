import {defineDoctorHook, doctorReport} from '@hanzo-dev/sdk'

// Placeholder, replaced by the git checks.
export default defineDoctorHook(async () => doctorReport([{id: 'git.stub', status: 'skip', title: 'git checks not written yet'}]))
